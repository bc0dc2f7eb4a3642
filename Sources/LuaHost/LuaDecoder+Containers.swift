/// The keyed container over a Lua table: every key asked for is recorded, so that the decoder can
/// reject the others once the type has been decoded.
struct LuaKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: LuaValueDecoder
    let table: LuaTable
    let usage: KeyUsage

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [Key] {
        table.sortedEntries.compactMap { entry in
            switch entry.key {
            case .string(let s): Key(stringValue: s)
            case .integer(let i): Key(intValue: Int(i))
            default: nil
            }
        }
    }

    /// The Lua key for `key`: its string, or its integer when the table has that instead.
    private func luaKey(_ key: Key) -> LuaValue {
        let name = LuaValue.string(key.stringValue)
        if let i = key.intValue, table[name].isNil { return .integer(Int64(i)) }
        return name
    }

    private func lookup(_ key: Key) -> LuaValue {
        let k = luaKey(key)
        usage.mark(k, name: key.stringValue)
        return table[k]
    }

    func contains(_ key: Key) -> Bool { !lookup(key).isNil }

    func decodeNil(forKey key: Key) throws -> Bool { lookup(key).isNil }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let value = lookup(key)
        let path = codingPath
        let missing: (() -> DecodingError)? =
            value.isNil && !(T.self is any OptionalProtocol.Type)
            ? { DecodingError.keyNotFound(key, .init(codingPath: path, debugDescription: "required field is missing")) } : nil
        return try decoder.decodeField(type, value, key: key, missing: missing)
    }

    // An optional field looked up once: the protocol's own `decodeIfPresent` asks `contains`,
    // `decodeNil` and `decode` in turn, three lookups and marks. A boolean, string, number or
    // integer that reads as one is taken as it is; any other value (and every error) goes through
    // the field's own decoder, as before. A persona's `day()` result, seven optional numbers, took
    // 60,000 instructions to decode.
    private func decodePresent<T: Decodable>(_ type: T.Type, forKey key: Key, _ plain: (LuaValue) -> T? = { _ in nil }) throws -> T? {
        let value = lookup(key)
        if value.isNil { return nil }
        if let plain = plain(value), !hasSetAside { return plain }
        return try decoder.decodeField(type, value, key: key, missing: nil)
    }

    /// The same for a required field.
    private func decodePlain<T: Decodable>(_ type: T.Type, forKey key: Key, _ plain: (LuaValue) -> T?) throws -> T {
        if let plain = plain(lookup(key)), !hasSetAside { return plain }
        return try decode(type, forKey: key)
    }

    /// Whether a collecting decode sets fields aside: they are found by `decodeField`, not the plain paths.
    private var hasSetAside: Bool { !(decoder.problems?.setAside.isEmpty ?? true) }

    private static func bool(_ value: LuaValue) -> Bool? { if case .boolean(let b) = value { b } else { nil } }
    private static func string(_ value: LuaValue) -> String? { if case .string(let s) = value { s } else { nil } }
    private static func double(_ value: LuaValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .number(let d) where d.isFinite: d
        default: nil
        }
    }
    private static func integer<I: FixedWidthInteger>(_ value: LuaValue) -> I? {
        if case .integer(let i) = value { I(exactly: i) } else { nil }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodePlain(type, forKey: key, Self.bool) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodePlain(type, forKey: key, Self.string) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodePlain(type, forKey: key, Self.double) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodePlain(type, forKey: key, Self.integer) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodePlain(type, forKey: key, Self.integer) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodePresent(type, forKey: key, Self.bool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodePresent(type, forKey: key, Self.string) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodePresent(type, forKey: key, Self.double) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodePresent(type, forKey: key, Self.integer) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodePresent(type, forKey: key, Self.integer) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodePresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodePresent(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(lookup(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(lookup(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(.table(table), key: LuaIndexKey(0))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(lookup(key), key: key)
    }
}

/// Whether a type is an Optional (a missing field then decodes as nil).
protocol OptionalProtocol {}
extension Optional: OptionalProtocol {}

/// The unkeyed container over a Lua sequence.
struct LuaUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: LuaValueDecoder
    let elements: [LuaValue]
    var currentIndex = 0

    init(decoder: LuaValueDecoder, elements: [LuaValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func pastTheEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(
            type, .init(codingPath: codingPath + [LuaIndexKey(currentIndex)], debugDescription: "the list has no more elements"))
    }

    private mutating func next(_ type: Any.Type) throws -> LuaValueDecoder {
        guard !isAtEnd else { throw pastTheEnd(type) }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], key: LuaIndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else { throw pastTheEnd(type) }
        defer { currentIndex += 1 }
        return try decoder.decodeField(type, elements[currentIndex], key: LuaIndexKey(currentIndex), missing: nil)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next(type).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}
