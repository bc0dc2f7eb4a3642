/// The JSON text `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, written
/// without Foundation's encoder: the value encoded as a ``JSONValue``, which ``JSONWriter`` writes
/// as the model's JSON, keys sorted. Several times faster, which matters for the event log and
/// options snapshots a simulation writes by the million. Dates, `Data` and other types
/// Foundation's encoder treats specially are not used by the model; they would be encoded as
/// their own `encode(to:)` says. A ``JSONWritable`` value writes its own text.
struct CompactJSONEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        if let value = value as? any JSONWritable { return try JSONWriter.text(of: value) }
        var writer = JSONWriter()
        try writer.write(try self.value(value))
        return writer.text
    }

    /// `value` as a `JSONValue`, as its `encode(to:)` says.
    static func value<T: Encodable>(_ value: T) throws -> JSONValue {
        if let value = value as? JSONValue { return value }
        if let scalar = try scalar(value) { return scalar }
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.root?.value ?? .emptyObject
    }

    /// The values encoded as JSON scalars, each as `JSONEncoder` writes it.
    static func scalar(_ value: Any) throws -> JSONValue? {
        switch value {
        case let v as String: .string(v)
        case let v as Bool: .bool(v)
        case let v as Int: .int(v)
        case let v as Int64: .int(Int(v))
        case let v as Int32: .int(Int(v))
        case let v as UInt32: .int(Int(v))
        case let v as UInt64: try whole(v)
        case let v as UInt: try whole(v)
        case let v as Double: .double(v)
        default: nil
        }
    }

    private static func whole(_ value: some BinaryInteger) throws -> JSONValue {
        guard let int = Int(exactly: value) else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is beyond Int's range"))
        }
        return .int(int)
    }

    /// A value being encoded; objects and arrays are boxes that containers fill later.
    enum Node {
        case value(JSONValue)
        case object(Box)
        case array(Box)

        var value: JSONValue {
            switch self {
            case .value(let value): value
            case .object(let box): .object(box.members.map { ($0.key, $0.value.value) })
            case .array(let box): .array(box.elements.map(\.value))
            }
        }
    }

    final class Box {
        var members: [(key: String, value: Node)] = []
        var elements: [Node] = []
        /// Where each key is in `members`, once there are more than a few: a search through them
        /// all made encoding a dictionary of n entries cost n² (a user's 2,000 habit tasks).
        private var positions: [String: Int]?

        func set(_ key: String, _ node: Node) {
            if positions == nil, members.count < 16 {
                if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = node } else { members.append((key, node)) }
                return
            }
            if positions == nil { positions = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) }) }
            if let i = positions![key] {
                members[i].value = node
            } else {
                positions![key] = members.count
                members.append((key, node))
            }
        }
    }

    final class TreeEncoder: Encoder {
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        var root: Node?

        init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object(let box)? = root { return KeyedEncodingContainer(Keyed(box: box, codingPath: codingPath)) }
            let box = Box()
            root = .object(box)
            return KeyedEncodingContainer(Keyed(box: box, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array(let box)? = root { return Unkeyed(box: box, codingPath: codingPath) }
            let box = Box()
            root = .array(box)
            return Unkeyed(box: box, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .value(.null)) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box.set(key.stringValue, .value(try CompactJSONEncoder.value(value)))
        }
        mutating func encode(_ value: String, forKey key: Key) throws { box.set(key.stringValue, .value(.string(value))) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { box.set(key.stringValue, .value(.bool(value))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { box.set(key.stringValue, .value(.int(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { box.set(key.stringValue, .value(.int(Int(value)))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { box.set(key.stringValue, .value(.double(value))) }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = Box()
            box.set(key.stringValue, .object(child))
            return KeyedEncodingContainer(Keyed<NestedKey>(box: child, codingPath: codingPath + [key]))
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Box()
            box.set(key.stringValue, .array(child))
            return Unkeyed(box: child, codingPath: codingPath + [key])
        }
        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let encoder = ReferenceEncoder(codingPath: codingPath + [key]) { [box] node in box.set(key.stringValue, node) }
            return encoder
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        let codingPath: [any CodingKey]
        var count: Int { box.elements.count }

        mutating func encodeNil() throws { box.elements.append(.value(.null)) }
        mutating func encode<T: Encodable>(_ value: T) throws { box.elements.append(.value(try CompactJSONEncoder.value(value))) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Box()
            box.elements.append(.object(child))
            return KeyedEncodingContainer(Keyed<NestedKey>(box: child, codingPath: codingPath))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Box()
            box.elements.append(.array(child))
            return Unkeyed(box: child, codingPath: codingPath)
        }
        mutating func superEncoder() -> any Encoder {
            let index = box.elements.count
            box.elements.append(.value(.null))
            return ReferenceEncoder(codingPath: codingPath) { [box] node in box.elements[index] = node }
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.root = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.root = .value(try CompactJSONEncoder.value(value)) }
        mutating func encode(_ value: String) throws { encoder.root = .value(.string(value)) }
        mutating func encode(_ value: Int) throws { encoder.root = .value(.int(value)) }
        mutating func encode(_ value: Int64) throws { encoder.root = .value(.int(Int(value))) }
        mutating func encode(_ value: Double) throws { encoder.root = .value(.double(value)) }
    }

    /// An encoder whose value lands in a container once encoded (`superEncoder`).
    final class ReferenceEncoder: Encoder {
        let inner: TreeEncoder
        let store: (Node) -> Void
        var codingPath: [any CodingKey] { inner.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        init(codingPath: [any CodingKey], store: @escaping (Node) -> Void) {
            inner = TreeEncoder(codingPath: codingPath)
            self.store = store
        }

        deinit { store(inner.root ?? .value(.emptyObject)) }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let container = inner.container(keyedBy: type)
            store(inner.root!)
            return container
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let container = inner.unkeyedContainer()
            store(inner.root!)
            return container
        }
        func singleValueContainer() -> any SingleValueEncodingContainer { inner.singleValueContainer() }
    }
}
