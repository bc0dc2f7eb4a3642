/// The JSON text `JSONEncoder` writes with `[.sortedKeys, .withoutEscapingSlashes]`, written
/// without Foundation's encoder: a tree of the encoded values, then the text, keys sorted. Several
/// times faster, which matters for the event log and options snapshots a simulation writes by the
/// million. Dates, `Data` and other types Foundation's encoder treats specially are not used by
/// the model; they would be encoded as their own `encode(to:)` says. A ``JSONWritable`` value
/// writes its own text.
struct CompactJSONEncoder {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        var out = ""
        try node(value).write(to: &out)
        return out
    }

    static func node<T: Encodable>(_ value: T) throws -> Node {
        if let scalar = try Node.scalar(value) { return scalar }
        if let value = value as? any JSONWritable { return .text(try JSONWriter.text(of: value)) }
        let encoder = TreeEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.root ?? .object(Box())
    }

    /// An encoded value; objects and arrays are boxes that containers fill later.
    enum Node {
        case text(String)   // a scalar, already written
        case object(Box)
        case array(Box)

        static func scalar<T>(_ value: T) throws -> Node? {
            guard let scalar = value as? any JSONScalar else { return nil }
            return .text(try scalar.jsonText())
        }

        func write(to out: inout String) {
            switch self {
            case .text(let text): out += text
            case .array(let box):
                out += "["
                for (i, element) in box.elements.enumerated() {
                    if i > 0 { out += "," }
                    element.write(to: &out)
                }
                out += "]"
            case .object(let box):
                out += "{"
                for (i, member) in box.members.sorted(by: { $0.key < $1.key }).enumerated() {
                    if i > 0 { out += "," }
                    ModelJSON.quote(member.key, into: &out)
                    out += ":"
                    member.value.write(to: &out)
                }
                out += "}"
            }
        }
    }

    final class Box {
        var members: [(key: String, value: Node)] = []
        var elements: [Node] = []

        func set(_ key: String, _ node: Node) {
            if let i = members.firstIndex(where: { $0.key == key }) { members[i].value = node } else { members.append((key, node)) }
        }
    }

    /// A number as `JSONEncoder` writes it: its shortest description, without a trailing `.0`.
    static func number(_ value: Double) -> String {
        let text = value.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    static func quote(_ value: String) -> String {
        var out = ""
        ModelJSON.quote(value, into: &out)
        return out
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

        mutating func encodeNil(forKey key: Key) throws { box.set(key.stringValue, .text("null")) }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box.set(key.stringValue, try CompactJSONEncoder.node(value))
        }
        mutating func encode(_ value: String, forKey key: Key) throws { box.set(key.stringValue, .text(quote(value))) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { box.set(key.stringValue, .text(value.jsonText())) }
        mutating func encode(_ value: Int, forKey key: Key) throws { box.set(key.stringValue, .text(String(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { box.set(key.stringValue, .text(String(value))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { box.set(key.stringValue, .text(try value.jsonText())) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
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

        mutating func encodeNil() throws { box.elements.append(.text("null")) }
        mutating func encode<T: Encodable>(_ value: T) throws { box.elements.append(try CompactJSONEncoder.node(value)) }
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
            box.elements.append(.text("null"))
            return ReferenceEncoder(codingPath: codingPath) { [box] node in box.elements[index] = node }
        }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: TreeEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws { encoder.root = .text("null") }
        mutating func encode<T: Encodable>(_ value: T) throws { encoder.root = try CompactJSONEncoder.node(value) }
        mutating func encode(_ value: String) throws { encoder.root = .text(quote(value)) }
        mutating func encode(_ value: Int) throws { encoder.root = .text(String(value)) }
        mutating func encode(_ value: Int64) throws { encoder.root = .text(String(value)) }
        mutating func encode(_ value: Double) throws { encoder.root = .text(try value.jsonText()) }
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

        deinit { store(inner.root ?? .object(Box())) }

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

/// The values written as JSON scalars, each as `JSONEncoder` writes it.
protocol JSONScalar {
    func jsonText() throws -> String
}

extension String: JSONScalar { func jsonText() -> String { CompactJSONEncoder.quote(self) } }
extension Bool: JSONScalar { func jsonText() -> String { self ? "true" : "false" } }
extension Int: JSONScalar { func jsonText() -> String { String(self) } }
extension Int64: JSONScalar { func jsonText() -> String { String(self) } }
extension Int32: JSONScalar { func jsonText() -> String { String(self) } }
extension UInt64: JSONScalar { func jsonText() -> String { String(self) } }
extension UInt32: JSONScalar { func jsonText() -> String { String(self) } }
extension UInt: JSONScalar { func jsonText() -> String { String(self) } }

extension Double: JSONScalar {
    func jsonText() throws -> String {
        guard isFinite else { throw EncodingError.invalidValue(self, EncodingError.Context(codingPath: [], debugDescription: "\(self) is not a JSON number")) }
        return CompactJSONEncoder.number(self)
    }
}
