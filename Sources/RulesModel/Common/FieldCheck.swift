import Foundation

/// Small checks shared by the `validate()` functions; each throws a ``ModelValidationError``.
struct FieldCheck {
    let entity: String
    /// A part of the entity's name joined to it only for a message (`EventPayload` and
    /// `CREDITS_SPENT`: `EventPayload.CREDITS_SPENT`), so that a check that passes builds no text.
    let member: String

    init(_ entity: String, member: String = "") {
        self.entity = entity
        self.member = member
    }

    func fail(_ field: String, _ rule: String, _ found: String) -> ModelValidationError {
        ModelValidationError(entity: member.isEmpty ? entity : entity + "." + member, field: field, rule: rule, found: found)
    }

    func require(
        _ condition: Bool, _ field: @autoclosure () -> String, _ rule: @autoclosure () -> String, _ found: @autoclosure () -> String
    ) throws {
        if !condition { throw fail(field(), rule(), found()) }
    }

    /// Text of `min...max` characters (grapheme clusters) without control characters other than
    /// tab and newline. `trimmedNonEmpty` additionally refuses text made of white space only.
    func text(_ field: @autoclosure () -> String, _ value: String, min: Int = 1, max: Int, trimmedNonEmpty: Bool = true) throws {
        // Printable ASCII (the usual case) is checked in one pass over the bytes: one character
        // per byte, no control character, white space only if all spaces.
        let printableASCII = Self.everyByte(of: value, in: 0x20...0x7E)
        let allSpaces = printableASCII && Self.everyByte(of: value, in: 0x20...0x20)
        let count = printableASCII ? value.utf8.count : value.count
        if count > max { throw fail(field(), "at most \(max) characters", "\(count)") }
        if count < min { throw fail(field(), "at least \(min) character\(min == 1 ? "" : "s")", "\(count)") }
        if !printableASCII, let bad = value.unicodeScalars.first(where: { Self.isForbiddenControl($0) }) {
            throw fail(field(), "no control characters", "U+\(String(bad.value, radix: 16, uppercase: true))")
        }
        if trimmedNonEmpty, min > 0, printableASCII ? allSpaces : value.allSatisfy({ $0.isWhitespace }) {
            throw fail(field(), "not only white space", quoted(value))
        }
    }

    func optionalText(_ field: @autoclosure () -> String, _ value: String?, max: Int) throws {
        if let value { try text(field(), value, min: 1, max: max) }
    }

    func range<T: Comparable>(_ field: @autoclosure () -> String, _ value: T, _ range: ClosedRange<T>) throws {
        if !range.contains(value) {
            throw fail(field(), "between \(range.lowerBound) and \(range.upperBound)", "\(value)")
        }
    }

    func atLeast<T: Comparable>(_ field: @autoclosure () -> String, _ value: T, _ minimum: T) throws {
        if value < minimum { throw fail(field(), "at least \(minimum)", "\(value)") }
    }

    func finite(_ field: @autoclosure () -> String, _ value: Double) throws {
        if !value.isFinite { throw fail(field(), "a finite number", "\(value)") }
    }

    func timestamp(_ field: @autoclosure () -> String, _ value: EpochMillis?) throws {
        if let value, !Millis.supportedRange.contains(value) {
            throw fail(
                field(), "a UTC epoch-millisecond timestamp between 1970 and 9999 (0…\(Millis.supportedRange.upperBound))", "\(value)")
        }
    }

    func notBefore(_ field: @autoclosure () -> String, _ value: EpochMillis?, _ otherField: String, _ other: EpochMillis?) throws {
        if let value, let other, value < other {
            throw fail(field(), "not before \(otherField) (\(other))", "\(value)")
        }
    }

    /// An identifier chosen by the app (`mode_id`, `attempt_id`, …): 1–128 printable ASCII
    /// characters without spaces.
    func identifier(_ field: @autoclosure () -> String, _ value: String, maxBytes: Int = 128) throws {
        if value.isEmpty { throw fail(field(), "a non-empty identifier", "\"\"") }
        if value.utf8.count > maxBytes { throw fail(field(), "an identifier of at most \(maxBytes) bytes", "\(value.utf8.count) bytes") }
        if !Self.everyByte(of: value, in: 0x21...0x7E) {
            throw fail(field(), "printable ASCII without spaces", quoted(value))
        }
    }

    func optionalIdentifier(_ field: @autoclosure () -> String, _ value: String?) throws {
        if let value { try identifier(field(), value) }
    }

    /// An IANA time-zone name such as `America/Vancouver` or `UTC`, checked by its shape only
    /// (the model does no I/O, so it does not consult the system's time-zone database).
    func timeZone(_ field: @autoclosure () -> String, _ value: String) throws {
        let valid = value.utf8.withContiguousStorageIfAvailable(Self.isTimeZoneName) ?? Self.isTimeZoneName(Array(value.utf8))
        if !valid { throw fail(field(), "an IANA time-zone name such as America/Vancouver", quoted(value)) }
    }

    /// Letters, digits and `/_+-`, at most 64 bytes, a letter first, no `//` and no `/` last: one
    /// pass over the bytes (a simulation checks a time zone at every Earned event).
    private static func isTimeZoneName(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
        guard let first = bytes.first, bytes.count <= 64, isLetter(first) else { return false }
        var previous: UInt8 = 0
        for c in bytes {
            guard isLetter(c) || (c >= 0x30 && c <= 0x39) || c == 0x2F || c == 0x5F || c == 0x2B || c == 0x2D else { return false }
            if c == 0x2F && previous == 0x2F { return false }
            previous = c
        }
        return previous != 0x2F
    }

    private static func isTimeZoneName(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(isTimeZoneName) }

    /// Whether every UTF-8 byte of `value` is in `bytes`, an ASCII range: over the string's
    /// contiguous bytes, eight at a time (a simulation checks millions of identifiers and texts;
    /// walking the UTF-8 view index by index costs several times more, a byte at a time twice more).
    static func everyByte<Text: StringProtocol>(of value: Text, in bytes: ClosedRange<UInt8>) -> Bool {
        precondition(bytes.upperBound < 0x80)
        return value.utf8.withContiguousStorageIfAvailable { everyByte(of: UnsafeRawBufferPointer($0), in: bytes) }
            ?? value.utf8.allSatisfy(bytes.contains)
    }

    static func everyByte(of buffer: UnsafeRawBufferPointer, in bytes: ClosedRange<UInt8>) -> Bool {
        // Per 64-bit word: a byte below `low` sets its high bit in (w - low×ones) & ~w (Mycroft's
        // test; a borrow only follows such a byte), a byte above `high` in (w + (127 - high)×ones) | w
        // (a carry only follows a byte that is flagged already). Exact as a yes/no for the word.
        let ones: UInt64 = 0x0101_0101_0101_0101, highBits: UInt64 = 0x8080_8080_8080_8080
        let below = ones &* UInt64(bytes.lowerBound), above = ones &* UInt64(0x7F - bytes.upperBound)
        var i = 0
        while i + 8 <= buffer.count {
            let w = buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if (((w &- below) & ~w) | (w &+ above) | w) & highBits != 0 { return false }
            i += 8
        }
        while i < buffer.count {
            if !bytes.contains(buffer[i]) { return false }
            i += 1
        }
        return true
    }

    /// Whether no two elements have equal `property`: pairwise, for the few options and quest types
    /// of a gate (cheaper than hashing them into a set, and no array of the properties made).
    static func distinct<E, T: Equatable>(_ elements: [E], by property: (E) -> T) -> Bool {
        for i in elements.indices {
            for j in elements.indices where j > i && property(elements[i]) == property(elements[j]) { return false }
        }
        return true
    }

    static func isForbiddenControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        default: false
        }
    }
}

/// A value quoted for an error message, shortened when long.
func quoted(_ value: String) -> String {
    let limit = 60
    let shown = value.count > limit ? String(value.prefix(limit)) + "…" : value
    return "\"" + shown.replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
