/// A type whose value can stand in for a bad field while a collecting decode
/// (`LuaDecoder.decodeReportingAll(_:from:file:)`) goes on with the fields after it, for a type that
/// cannot be built from zeros and empty strings (a time of day that parses its text).
public protocol LuaDecodingPlaceholder {
    static var luaDecodingPlaceholder: Self { get }
}

extension LuaFunction: LuaDecodingPlaceholder {
    /// A function of no host (never called: a decode with a problem is refused).
    public static var luaDecodingPlaceholder: LuaFunction { LuaFunction(reference: -2, hostID: 0, source: "", line: 0) }
}

/// Builds the placeholder of a type: its own (``LuaDecodingPlaceholder``), an enum's first case,
/// or the type decoded from zeros, `false`, empty strings, empty lists and absent optionals.
enum LuaPlaceholder {
    static func value<T: Decodable>(of type: T.Type) -> T? {
        if let own = T.self as? any LuaDecodingPlaceholder.Type { return own.luaDecodingPlaceholder as? T }
        if let cases = T.self as? any CaseIterable.Type { return first(of: cases) as? T }
        return try? T(from: PlaceholderDecoder(codingPath: []))
    }

    private static func first<C: CaseIterable>(of type: C.Type) -> C? { type.allCases.first }

    static func required<T: Decodable>(_ type: T.Type, codingPath: [any CodingKey]) throws -> T {
        guard let value = value(of: type) else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath, debugDescription: "no placeholder"))
        }
        return value
    }
}

/// The decoder of placeholders: every value is zero, `false`, `""`, an empty list or absent.
struct PlaceholderDecoder: Decoder, SingleValueDecodingContainer {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<Key>(codingPath: codingPath))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { PlaceholderUnkeyedContainer(codingPath: codingPath) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { false }
    func decode(_ type: String.Type) throws -> String { "" }
    func decode(_ type: Double.Type) throws -> Double { 0 }
    func decode(_ type: Float.Type) throws -> Float { 0 }
    func decode(_ type: Int.Type) throws -> Int { 0 }
    func decode(_ type: Int8.Type) throws -> Int8 { 0 }
    func decode(_ type: Int16.Type) throws -> Int16 { 0 }
    func decode(_ type: Int32.Type) throws -> Int32 { 0 }
    func decode(_ type: Int64.Type) throws -> Int64 { 0 }
    func decode(_ type: UInt.Type) throws -> UInt { 0 }
    func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
    func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
    func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
    func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try LuaPlaceholder.required(type, codingPath: codingPath) }
}

/// A table with no fields: optionals are absent, required fields are placeholders.
struct PlaceholderKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try LuaPlaceholder.required(type, codingPath: codingPath + [key])
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(PlaceholderKeyedContainer<NestedKey>(codingPath: codingPath + [key]))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        PlaceholderUnkeyedContainer(codingPath: codingPath + [key])
    }
    func superDecoder() throws -> any Decoder { PlaceholderDecoder(codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { PlaceholderDecoder(codingPath: codingPath + [key]) }
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
