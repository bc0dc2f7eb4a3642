import Foundation

/// Each user's segments (`analyze --segments FILE.csv`): a CSV file (RFC 4180: commas, fields in
/// double quotes when they hold a comma, a quote or a line break, `""` for a quote) whose header
/// names the column `user` first and then each dimension (`platform`, `country`, `persona`…), one
/// row per user. The analysis breaks each arm's users down by every dimension. A user of the log
/// with no row is in no segment of any dimension (counted); a row of a user not in the log is
/// ignored.
package struct UserSegments: Sendable {
    /// The dimensions, in the header's order.
    package let dimensions: [String]
    /// Per dimension, its values, in the order first met.
    package private(set) var values: [[String]]
    /// Per user, per dimension, the index of its value.
    private var rows: [String: [Int32]] = [:]

    /// The largest file read, the most dimensions, the most values per dimension, the longest value.
    package static let maxBytes = 512 << 20
    package static let maxDimensions = 8
    package static let maxValues = 64
    package static let maxValueLength = 64

    /// The segments of `bytes`, the file `name` (as messages name it).
    package init(csv bytes: [UInt8], name: String) throws(InputFileError) {
        guard bytes.count <= Self.maxBytes else { throw InputFileError(name, "larger than \(Self.maxBytes) bytes") }
        var records = CSVRecords(bytes)
        func next() throws(InputFileError) -> (line: Int, fields: [String])? {
            do { return try records.next() } catch { throw InputFileError(name, line: error.line, error.message) }
        }
        guard let header = try next() else {
            throw InputFileError(name, line: 1, "empty: expected a header naming the column user, then each dimension (platform, …)")
        }
        var columns = header.fields
        if let first = columns.first, first.hasPrefix("\u{FEFF}") { columns[0] = String(first.dropFirst()) }  // a byte-order mark
        guard columns.first == "user" else {
            throw InputFileError(name, line: 1, "column 1: expected the header user, found \"\(columns.first ?? "")\"")
        }
        let dimensions = Array(columns.dropFirst())
        guard !dimensions.isEmpty else {
            throw InputFileError(name, line: 1, "expected at least one dimension after user (user,platform,country…)")
        }
        guard dimensions.count <= Self.maxDimensions else {
            throw InputFileError(name, line: 1, "\(dimensions.count) dimensions, expected at most \(Self.maxDimensions)")
        }
        for (i, d) in dimensions.enumerated() {
            guard d.range(of: "^[a-z][a-z0-9_]{0,39}$", options: .regularExpression) != nil else {
                throw InputFileError(
                    name, line: 1, "column \(i + 2): expected a dimension's name (a-z, 0-9, _; at most 40 characters), found \"\(d)\"")
            }
            if dimensions.prefix(i).contains(d) { throw InputFileError(name, line: 1, "column \(i + 2): \(d) names two columns") }
        }
        self.dimensions = dimensions
        values = Array(repeating: [], count: dimensions.count)
        var index: [[String: Int32]] = Array(repeating: [:], count: dimensions.count)
        var firstLine: [String: Int] = [:]
        while let (line, fields) = try next() {
            if fields == [""] { continue }  // a blank line
            guard fields.count == columns.count else {
                throw InputFileError(
                    name, line: line, "\(fields.count) fields, expected \(columns.count) (\(columns.joined(separator: ",")))")
            }
            let user = fields[0]
            guard !user.isEmpty else { throw InputFileError(name, line: line, "user: empty, expected the user's name as the log has it") }
            if let earlier = firstLine[user] {
                throw InputFileError(name, line: line, "user: \(user) has a row already (line \(earlier)); expected one row per user")
            }
            firstLine[user] = line
            var row: [Int32] = []
            for (d, value) in fields.dropFirst().enumerated() {
                guard !value.isEmpty, value.count <= Self.maxValueLength else {
                    throw InputFileError(
                        name, line: line,
                        "\(dimensions[d]): expected a value of 1 to \(Self.maxValueLength) characters, found \"\(value.prefix(80))\"")
                }
                if let i = index[d][value] {
                    row.append(i)
                } else {
                    guard values[d].count < Self.maxValues else {
                        throw InputFileError(
                            name, line: line,
                            "\(dimensions[d]): a \(Self.maxValues + 1)th value, \"\(value)\"; expected at most \(Self.maxValues) per dimension"
                        )
                    }
                    index[d][value] = Int32(values[d].count)
                    row.append(Int32(values[d].count))
                    values[d].append(value)
                }
            }
            rows[user] = row
        }
    }

    /// A CSV field: in double quotes when it holds a comma, a quote or a line break.
    package static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The index of `user`'s value of each dimension, nil when the file has no row for it.
    package func segments(of user: String) -> [Int32]? { rows[user] }
}

/// The records of a CSV text (RFC 4180), each with the line it starts on.
struct CSVRecords {
    struct Failure: Error {
        var line: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var i = 0
    private var line = 1

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func next() throws(Failure) -> (line: Int, fields: [String])? {
        guard i < bytes.count else { return nil }
        let start = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        func take() throws(Failure) {
            guard let text = String(validating: field, as: UTF8.self) else { throw Failure(line: line, message: "expected UTF-8 text") }
            fields.append(text)
            field = []
        }
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                        field.append(b)
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if b == UInt8(ascii: "\n") { line += 1 }
                    field.append(b)
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                guard field.isEmpty else {
                    throw Failure(
                        line: line, message: "a quote inside a field that does not start with one (write it \"\"…\"\" in a quoted field)")
                }
                quoted = true
            case UInt8(ascii: ","): try take()
            case UInt8(ascii: "\n"):
                if field.last == UInt8(ascii: "\r") { field.removeLast() }
                try take()
                line += 1
                return (start, fields)
            default: field.append(b)
            }
        }
        if quoted { throw Failure(line: start, message: "a quoted field is not closed before the end of the file") }
        if field.last == UInt8(ascii: "\r") { field.removeLast() }
        try take()
        return (start, fields)
    }
}
