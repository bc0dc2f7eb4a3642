/// Decodes Swift `Decodable` types from Lua values (typically the table a rule file returns).
///
/// Stricter than JSON decoding, because a typo in a rule file must not pass silently:
/// - every key of a table decoded as a struct must be a field of that struct (unknown keys are
///   rejected, with a did-you-mean suggestion);
/// - integers must be integers (`3.0` is accepted, `3.5` is not), floats must be finite;
/// - lists must be sequences (keys exactly 1…n).
///
/// Errors are `LuaError`s of kind `.decoding` whose `path` is the field as a rule author writes it:
/// `tiers[2].recover_after: expected an integer, found string "two"`. `decodeReportingAll(_:from:file:)`
/// goes on past a bad field (putting a placeholder in its place) and reports every field's problem.
public struct LuaDecoder {
    /// Whether keys the decoded type does not ask for are errors (the default) or ignored (for a
    /// partial view of a larger table).
    public var rejectsUnknownKeys: Bool

    public init(rejectsUnknownKeys: Bool = true) {
        self.rejectsUnknownKeys = rejectsUnknownKeys
    }

    /// Decodes `type` from `value`. `file`, if given, is put on the error.
    public func decode<T: Decodable>(_ type: T.Type, from value: LuaValue, file: String? = nil) throws -> T {
        do {
            return try LuaValueDecoder(value: value, codingPath: [], strict: rejectsUnknownKeys).decodeChecked(T.self)
        } catch let error as DecodingError {
            var failure = LuaError(decoding: error)
            failure.file = file
            throw failure
        }
    }

    /// Decodes `type` from `value`, reporting every problem rather than the first: a bad field is
    /// recorded and decoding goes on with its siblings (a problem in a nested table does not hide
    /// the fields after it). When there are problems, `value` (if any) holds placeholders where the
    /// bad fields were (of `placeholders`): fit only for the checks of the fields that decoded, never for use.
    /// The fields at `setAside` (paths as `LuaPath` renders them: `tiers[2].recover_after`) get a
    /// placeholder too, as if they were bad, without a problem: for telling which checks of the
    /// other fields depend on them.
    public func decodeReportingAll<T: Decodable>(
        _ type: T.Type, from value: LuaValue, file: String? = nil, placeholders: LuaPlaceholderSet = .first,
        setAside: Set<String> = []
    ) -> (value: T?, problems: [LuaError]) {
        let collected = DecodingProblems(placeholders: placeholders, setAside: setAside)
        var result: T?
        do {
            result = try LuaValueDecoder(value: value, codingPath: [], strict: rejectsUnknownKeys, problems: collected)
                .decodeChecked(T.self)
        } catch let error as DecodingError {
            collected.record(error)
        } catch {
            collected.record(.dataCorrupted(.init(codingPath: [], debugDescription: "\(error)")))
        }
        let problems = collected.errors.map { error in
            var failure = LuaError(decoding: error)
            failure.file = file
            return failure
        }
        return (result, problems)
    }
}

/// The problems of one collecting decode, shared by the decoders of its fields.
final class DecodingProblems {
    let placeholders: LuaPlaceholderSet
    /// The fields that get a placeholder whatever their value (``LuaDecoder/decodeReportingAll(_:from:file:placeholders:setAside:)``).
    let setAside: Set<String>
    private(set) var errors: [DecodingError] = []
    private var seen: Set<String> = []

    init(placeholders: LuaPlaceholderSet, setAside: Set<String> = []) {
        self.placeholders = placeholders
        self.setAside = setAside
    }

    /// The placeholder of the field at `path`, when that field is set aside.
    func setAsidePlaceholder<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) -> T? {
        guard !setAside.isEmpty, setAside.contains(LuaPath.render(path)) else { return nil }
        return LuaPlaceholder.value(of: type, placeholders)
    }

    /// Records `error` once (an error rethrown through the fields above it is the same problem).
    func record(_ error: DecodingError) {
        let failure = LuaError(decoding: error)
        if seen.insert(failure.description).inserted { errors.append(error) }
    }

    /// Drops the "required field is missing" of `path`'s field `key` (a misspelling of it is reported instead).
    func dropMissing(_ key: String, at path: [any CodingKey]) {
        errors.removeAll { error in
            guard case .keyNotFound(let missing, let context) = error else { return false }
            return missing.stringValue == key && LuaPath.render(context.codingPath) == LuaPath.render(path)
        }
    }
}

extension LuaError {
    /// A `DecodingError` as a rule author should read it.
    init(decoding error: DecodingError) {
        switch error {
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            self.init(kind: .decoding, path: LuaPath.render(context.codingPath), message: context.debugDescription)
        case .valueNotFound(let type, let context):
            self.init(
                kind: .decoding, path: LuaPath.render(context.codingPath),
                message: "expected \(LuaValueDecoder.expectation(for: type)), found nil")
        case .keyNotFound(let key, let context):
            self.init(
                kind: .decoding, path: LuaPath.render(context.codingPath + [key]),
                message: "required field is missing")
        @unknown default:
            self.init(kind: .decoding, message: "\(error)")
        }
    }
}

/// The keys of one table that a decoded type asked for; the others are unknown.
final class KeyUsage {
    var used: Set<LuaValue> = []
    var asked: [String] = []

    func mark(_ key: LuaValue, name: String) {
        used.insert(key)
        if !asked.contains(name) { asked.append(name) }
    }

    func rejectUnknown(in table: LuaTable, codingPath: [any CodingKey], problems: DecodingProblems? = nil) throws {
        // Sorted (for the message's order) only when there is an unknown key.
        guard table.storage.keys.contains(where: { !used.contains($0) }) else { return }
        let unknown = table.sortedEntries.map(\.key).filter { !used.contains($0) }
        guard let first = unknown.first else { return }
        if let problems {
            // A misspelt required field is reported as the misspelling (with its suggestion), not also as missing.
            for case .string(let name) in unknown {
                if let meant = Suggestion.closest(to: name, among: asked) { problems.dropMissing(meant, at: codingPath) }
            }
            // Every unknown key is a problem of its own, at its own path (and so at its own line).
            for key in unknown {
                problems.record(
                    .dataCorrupted(
                        .init(
                            codingPath: codingPath + [LuaPath.key(for: key)],
                            debugDescription: LuaPath.unknownFieldMessage(key, others: [], known: asked))))
            }
            return
        }
        let message = LuaPath.unknownFieldMessage(first, others: unknown.dropFirst(), known: asked)
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [LuaPath.key(for: first)], debugDescription: message))
    }
}

/// The `Decoder` over one Lua value.
final class LuaValueDecoder: Decoder {
    let value: LuaValue
    let codingPath: [any CodingKey]
    let strict: Bool
    /// Where a collecting decode records its problems (nil: the first problem is thrown).
    let problems: DecodingProblems?
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var usage: KeyUsage?

    init(value: LuaValue, codingPath: [any CodingKey], strict: Bool, problems: DecodingProblems? = nil) {
        self.value = value
        self.codingPath = codingPath
        self.strict = strict
        self.problems = problems
    }

    /// Decodes the field `key` (a value of this table) as `type`; a collecting decode records its
    /// problem and goes on with a placeholder in its place.
    func decodeField<T: Decodable>(_ type: T.Type, _ value: LuaValue, key: any CodingKey, missing: (() -> DecodingError)?) throws -> T {
        if let problems, let placeholder = problems.setAsidePlaceholder(type, at: codingPath + [key]) { return placeholder }
        do {
            if let missing { throw missing() }
            return try child(value, key: key).decodeChecked(type)
        } catch let error as DecodingError {
            guard let problems else { throw error }
            problems.record(error)
            guard let placeholder = LuaPlaceholder.value(of: type, problems.placeholders) else { throw error }
            return placeholder
        }
    }

    /// Decodes `T`, then rejects the keys of this table that `T` did not ask for.
    func decodeChecked<T: Decodable>(_ type: T.Type) throws -> T {
        if let primitive = try decodePrimitive(type) { return primitive }
        let result: T
        do {
            result = try T(from: self)
        } catch DecodingError.dataCorrupted(let context)
            where context.codingPath.count == codingPath.count
            && context.debugDescription.hasPrefix("Cannot initialize")
        {
            throw mismatch(type, expected: LuaValueDecoder.expectation(for: type))
        } catch DecodingError.keyNotFound(let key, let context) where context.codingPath.count == codingPath.count {
            // A misspelt field reads as "missing" first; name the misspelling instead when there is one.
            if let usage, case .table(let table) = value,
                let typo = table.stringKeys.first(where: {
                    !usage.used.contains(.string($0))
                        && Suggestion.closest(to: $0, among: [key.stringValue]) != nil
                })
            {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath + [LuaNameKey(typo)],
                        debugDescription: "unknown field (did you mean '\(key.stringValue)'?)"))
            }
            throw DecodingError.keyNotFound(key, context)
        } catch let error as DecodingError {
            throw error
        } catch {
            // A type's own validation (a malformed time, an out-of-range value) at this field.
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: ownMessage(error)))
        }
        if strict, let usage, case .table(let table) = value {
            do {
                try usage.rejectUnknown(in: table, codingPath: codingPath, problems: problems)
            } catch let error as DecodingError {
                guard let problems else { throw error }
                problems.record(error)
            }
        }
        return result
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .table(let table) = value else { throw mismatch([String: Int].self, expected: "a table") }
        let usage = self.usage ?? KeyUsage()
        self.usage = usage
        return KeyedDecodingContainer(LuaKeyedContainer<Key>(decoder: self, table: table, usage: usage))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .table(let table) = value else { throw mismatch([Int].self, expected: "a list") }
        guard table.isSequence else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "expected a list (keys 1, 2, … with no gaps), found a table with other keys"))
        }
        return LuaUnkeyedContainer(decoder: self, elements: table.sequence)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func child(_ value: LuaValue, key: any CodingKey) -> LuaValueDecoder {
        LuaValueDecoder(value: value, codingPath: codingPath + [key], strict: strict, problems: problems)
    }

    /// The message of a type's own validation error without the field it names itself, which the
    /// problem's path already gives: `LocalTime.habit.day_starts_at: a time of day HH:MM …, found "25:00"`
    /// → `expected a time of day HH:MM …, found "25:00"`.
    private func ownMessage(_ error: any Error) -> String {
        let text = "\(error)"
        let dotted = codingPath.map(\.stringValue).joined(separator: ".")
        guard !dotted.isEmpty, let range = text.range(of: "." + dotted + ": ") else { return text }
        let before = text[..<range.lowerBound]
        guard !before.contains(" "), !before.contains(":") else { return text }
        return "expected " + text[range.upperBound...]
    }

    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(value.errorDescription)"))
    }

    /// How an expected type reads in a message.
    static func expectation(for type: Any.Type) -> String {
        if let cases = caseNames(type) {
            return "one of " + cases.map { "\"\($0)\"" }.joined(separator: ", ")
        }
        switch type {
        case is Bool.Type: return "a boolean"
        case is String.Type: return "a string"
        case is Double.Type, is Float.Type: return "a finite number"
        case is any FixedWidthInteger.Type: return "an integer"
        default: return "a value of type \(type)"
        }
    }

    private static func caseNames(_ type: Any.Type) -> [String]? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        return names(of: iterable)
    }

    private static func names<C: CaseIterable>(of type: C.Type) -> [String] {
        type.allCases.map { value in
            if let raw = value as? any RawRepresentable { return "\(raw.rawValue)" }
            return "\(value)"
        }
    }

    // MARK: Primitives

    func decodePrimitive<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is Bool.Type: return try decode(Bool.self) as? T
        case is String.Type: return try decode(String.self) as? T
        case is Double.Type: return try decode(Double.self) as? T
        case is Int.Type: return try decode(Int.self) as? T
        case is Int64.Type: return try decode(Int64.self) as? T
        default: return nil
        }
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        switch value {
        case .integer(let i):
            guard let exact = I(exactly: i) else {
                throw mismatch(type, expected: "an integer between \(I.min) and \(I.max)")
            }
            return exact
        case .number(let d):
            guard let i = value.integerValue else { throw mismatch(type, expected: "an integer") }
            guard let exact = I(exactly: i), Double(i) == d else {
                throw mismatch(type, expected: "an integer between \(I.min) and \(I.max)")
            }
            return exact
        default:
            throw mismatch(type, expected: "an integer")
        }
    }

    func decodeFloat() throws -> Double {
        switch value {
        case .integer(let i): return Double(i)
        case .number(let d):
            guard d.isFinite else { throw mismatch(Double.self, expected: "a finite number") }
            return d
        default: throw mismatch(Double.self, expected: "a number")
        }
    }
}

extension LuaValueDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value.isNil }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .boolean(let b) = value else { throw mismatch(type, expected: "a boolean") }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw mismatch(type, expected: "a string") }
        return s
    }

    func decode(_ type: Double.Type) throws -> Double { try decodeFloat() }
    func decode(_ type: Float.Type) throws -> Float {
        let d = try decodeFloat()
        guard let f = Float(exactly: d) ?? (abs(d) <= Double(Float.greatestFiniteMagnitude) ? Float(d) : nil) else {
            throw mismatch(type, expected: "a number in Float's range")
        }
        return f
    }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeChecked(type) }
}

extension LuaFunction: Decodable {
    /// A function field of a rule table (only through `LuaDecoder`).
    public init(from decoder: any Decoder) throws {
        guard let lua = decoder as? LuaValueDecoder else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a Lua function can only be decoded by LuaDecoder"))
        }
        guard case .function(let function) = lua.value else {
            throw lua.mismatch(LuaFunction.self, expected: "a function")
        }
        self = function
    }
}
