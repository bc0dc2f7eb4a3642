/// A type whose value can stand in for a bad field while a collecting decode
/// (`LuaDecoder.decodeReportingAll(_:from:file:)`) goes on with the fields after it, for a type that
/// cannot be built from zeros and empty strings (a time of day that parses its text).
public protocol LuaDecodingPlaceholder {
    /// The placeholder of a set (two differ, so that a check of the other fields that depends on
    /// it can be told by its changing result).
    static func luaDecodingPlaceholder(_ set: LuaPlaceholderSet) -> Self
}

/// Which placeholders a collecting decode puts in place of bad fields: the first set is zero,
/// `false`, `""`, an enum's first case; the second one, 7, `true`, `"x"`, its last case.
public enum LuaPlaceholderSet: Sendable {
    case first, second
}

extension LuaFunction: LuaDecodingPlaceholder {
    /// A function of no host (never called: a decode with a problem is refused).
    public static func luaDecodingPlaceholder(_ set: LuaPlaceholderSet) -> LuaFunction {
        LuaFunction(reference: -2, hostID: 0, source: "", line: 0)
    }
}

/// Builds the placeholder of a type: its own (``LuaDecodingPlaceholder``), an enum's first (or
/// last) case, or the type decoded from the set's numbers, booleans and strings, empty lists and
/// absent optionals.
enum LuaPlaceholder {
    static func value<T: Decodable>(of type: T.Type, _ set: LuaPlaceholderSet) -> T? {
        if let own = T.self as? any LuaDecodingPlaceholder.Type { return own.luaDecodingPlaceholder(set) as? T }
        if let cases = T.self as? any CaseIterable.Type { return pick(cases, set) as? T }
        return try? T(from: PlaceholderDecoder(codingPath: [], kind: set))
    }

    private static func pick<C: CaseIterable>(_ type: C.Type, _ set: LuaPlaceholderSet) -> C? {
        set == .first ? type.allCases.first : Array(type.allCases).last
    }

    static func required<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey], set: LuaPlaceholderSet) throws -> T {
        guard let value = value(of: type, set) else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "no placeholder"))
        }
        return value
    }
}

/// The decoder of placeholders: every value is the set's number, boolean or string, an empty
/// list or absent.
struct PlaceholderDecoder: Decoder, SingleValueDecodingContainer {
    let codingPath: [any CodingKey]
    let kind: LuaPlaceholderSet
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private var number: Int { kind == .first ? 0 : 7 }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<Key>(codingPath: codingPath, kind: kind))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { PlaceholderUnkeyedContainer(codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { kind == .second }
    func decode(_ type: String.Type) throws -> String { kind == .first ? "" : "x" }
    func decode(_ type: Double.Type) throws -> Double { Double(number) }
    func decode(_ type: Float.Type) throws -> Float { Float(number) }
    func decode(_ type: Int.Type) throws -> Int { Int(number) }
    func decode(_ type: Int8.Type) throws -> Int8 { Int8(number) }
    func decode(_ type: Int16.Type) throws -> Int16 { Int16(number) }
    func decode(_ type: Int32.Type) throws -> Int32 { Int32(number) }
    func decode(_ type: Int64.Type) throws -> Int64 { Int64(number) }
    func decode(_ type: UInt.Type) throws -> UInt { UInt(number) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { UInt8(number) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { UInt16(number) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { UInt32(number) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { UInt64(number) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try LuaPlaceholder.required(type, codingPath: codingPath, set: kind) }
}

/// A table with no fields: optionals are absent, required fields are placeholders.
struct PlaceholderKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    let kind: LuaPlaceholderSet
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try LuaPlaceholder.required(type, codingPath: codingPath + [key], set: kind)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<NestedKey>(codingPath: codingPath + [key], kind: kind))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(codingPath: codingPath + [key])
    }
    func superDecoder() throws -> any Decoder { PlaceholderDecoder(codingPath: codingPath, kind: kind) }
    func superDecoder(forKey key: Key) throws -> any Decoder { PlaceholderDecoder(codingPath: codingPath + [key], kind: kind) }
}

/// An empty list.
struct PlaceholderUnkeyedContainer: UnkeyedDecodingContainer {
    let codingPath: [any CodingKey]
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    private func end(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "the list has no more elements"))
    }
    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw end(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw end(type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw end([Any].self) }
    mutating func superDecoder() throws -> any Decoder { throw end(Any.self) }
}
