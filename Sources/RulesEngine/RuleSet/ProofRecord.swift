import LuaHost

/// The bytes of a ``ProofStore`` file: integers as 8 bytes, little-endian; texts and byte strings
/// with their length first. Read back by ``Reader``, which checks every length and count against
/// the bytes left and its limits, and throws at the first thing that does not fit: a file cut
/// short, changed or made up is refused, never trusted.
enum ProofRecord {
    struct Malformed: Error {}

    /// The most outcomes, problems per outcome and bytes per text a record is read with (a
    /// proof records a few counterexamples of each kind; a rule file is at most a few megabytes).
    static let maxOutcomes = 64
    static let maxProblems = 100_000
    static let maxTextBytes = 1 << 20
    /// The largest instruction count read back: far above the validation budget, far below an overflow.
    static let maxInstructions: Int64 = 1 << 52

    struct Writer {
        private(set) var bytes: [UInt8] = []

        mutating func integer(_ value: Int64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func data(_ value: some Collection<UInt8>) {
            integer(Int64(value.count))
            bytes.append(contentsOf: value)
        }

        mutating func text(_ value: String) { data(Array(value.utf8)) }

        mutating func optional<T>(_ value: T?, _ write: (inout Writer, T) -> Void) {
            integer(value == nil ? 0 : 1)
            if let value { write(&self, value) }
        }
    }

    struct Reader {
        let bytes: [UInt8]
        private(set) var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func integer() throws(Malformed) -> Int64 {
            guard bytes.count - position >= 8 else { throw Malformed() }
            var value: UInt64 = 0
            for i in 0..<8 { value |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            position += 8
            return Int64(bitPattern: value)
        }

        /// An integer from `range`.
        mutating func integer(in range: ClosedRange<Int64>) throws(Malformed) -> Int64 {
            let value = try integer()
            guard range.contains(value) else { throw Malformed() }
            return value
        }

        /// A count of at most `max` items.
        mutating func count(max: Int) throws(Malformed) -> Int { Int(try integer(in: 0...Int64(max))) }

        /// At most `max` bytes, and no more than are left after their length.
        mutating func data(max: Int) throws(Malformed) -> ArraySlice<UInt8> {
            let count = try count(max: max)
            guard count <= bytes.count - position else { throw Malformed() }
            defer { position += count }
            return bytes[position..<position + count]
        }

        /// A text of valid UTF-8.
        mutating func text() throws(Malformed) -> String {
            guard let text = String(validating: try data(max: ProofRecord.maxTextBytes), as: UTF8.self) else { throw Malformed() }
            return text
        }

        mutating func optional<T>(_ read: (inout Reader) throws(Malformed) -> T) throws(Malformed) -> T? {
            switch try integer() {
            case 0: return nil
            case 1: return try read(&self)
            default: throw Malformed()
            }
        }
    }

    /// The key's bytes, as a store file holds them and compares them whole; nil for a key a file
    /// cannot hold (an override's value that is not a number, a boolean or a text).
    static func key(_ key: ProofCache.Key, identity: String) -> [UInt8]? {
        var out = Writer()
        out.text(identity)
        out.text(key.policy)
        out.integer(Int64(key.files.count))
        for name in key.files { out.text(name) }
        out.integer(Int64(key.contents.count))
        for contents in key.contents { out.data(contents) }
        out.integer(Int64(key.overrides.count))
        for knob in key.overrides {
            out.text(knob.module)
            out.integer(Int64(knob.keys.count))
            for value in knob.keys + [knob.value] {
                switch value {
                case .integer(let n):
                    out.integer(1)
                    out.integer(n)
                case .number(let d):
                    out.integer(2)
                    out.integer(Int64(bitPattern: d.bitPattern))
                case .boolean(let b):
                    out.integer(3)
                    out.integer(b ? 1 : 0)
                case .string(let s):
                    out.integer(4)
                    out.text(s)
                default:
                    return nil
                }
            }
        }
        out.text(key.limits)
        out.integer(key.randomSeed)
        out.data(key.randomState)
        return out.bytes
    }

    static func entry(_ entry: ProofCache.Entry) -> [UInt8] {
        func problem(_ out: inout Writer, _ problem: RuleProblem) {
            out.text(problem.file)
            out.optional(problem.line) { $0.integer(Int64($1)) }
            out.text(problem.message)
            out.optional(problem.field) { $0.text($1) }
        }
        var out = Writer()
        out.integer(entry.start)
        out.integer(entry.instructions)
        out.data(entry.randomState)
        out.integer(Int64(entry.outcomes.count))
        for outcome in entry.outcomes {
            out.text(outcome.name)
            out.integer(Int64(outcome.inputs))
            out.optional(outcome.unproved) { $0.text($1) }
            out.integer(Int64(outcome.problems.count))
            for each in outcome.problems { problem(&out, each) }
            out.optional(outcome.budgetProblem, problem)
        }
        return out.bytes
    }

    static func entry(from bytes: [UInt8]) throws(Malformed) -> ProofCache.Entry {
        func problem(_ input: inout Reader) throws(Malformed) -> RuleProblem {
            let file = try input.text()
            let line = try input.optional { (input: inout Reader) throws(Malformed) in Int(try input.integer(in: 0...Int64(Int32.max))) }
            let message = try input.text()
            let field = try input.optional { (input: inout Reader) throws(Malformed) in try input.text() }
            return RuleProblem(file: file, line: line, message: message, field: field)
        }
        var input = Reader(bytes)
        let start = try input.integer(in: 0...maxInstructions)
        let instructions = try input.integer(in: 0...maxInstructions)
        let randomState = Array(try input.data(max: 256))
        var outcomes: [ProofCache.Outcome] = []
        for _ in 0..<(try input.count(max: maxOutcomes)) {
            let name = try input.text()
            let inputs = Int(try input.integer(in: 0...Int64(Int32.max)))
            let unproved = try input.optional { (input: inout Reader) throws(Malformed) in try input.text() }
            var problems: [RuleProblem] = []
            for _ in 0..<(try input.count(max: maxProblems)) { problems.append(try problem(&input)) }
            let budgetProblem = try input.optional(problem)
            outcomes.append(
                ProofCache.Outcome(name: name, inputs: inputs, unproved: unproved, problems: problems, budgetProblem: budgetProblem))
        }
        guard input.isAtEnd else { throw Malformed() }
        return ProofCache.Entry(outcomes: outcomes, start: start, instructions: instructions, randomState: randomState)
    }
}
