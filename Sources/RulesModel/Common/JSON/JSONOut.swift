/// JSON for the engine's output, with a fixed key order (as built) and integers kept apart from
/// floats, so that the same events always print the same bytes.
public enum JSONOut: Equatable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONOut])
    case object([(String, JSONOut)])

    public static func == (a: JSONOut, b: JSONOut) -> Bool { a.description == b.description }

    /// The value of `key` in an object.
    public subscript(key: String) -> JSONOut? {
        if case .object(let fields) = self { return fields.first { $0.0 == key }?.1 }
        return nil
    }

    public var description: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? "\(d)" : "null"
        case .string(let s): JSONOut.quote(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                JSONOut.quote(key, into: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// As `ModelJSON.quote`, and DEL and the C1 controls escaped too: this JSON is printed to terminals.
    static func quote(_ s: String, into out: inout String) { ModelJSON.quote(s, into: &out, escapingDELAndC1: true) }
}
