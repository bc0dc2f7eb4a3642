/// How many times each line of each chunk ran while a `LuaHost` recorded lines
/// (`startLineRecording`): chunk name (a rule file's, as messages name it) → line → count. Lines
/// that did not run are absent.
public struct LineCounts: Sendable, Equatable {
    public var chunks: [String: [Int: Int]]

    public init(_ chunks: [String: [Int: Int]] = [:]) { self.chunks = chunks }

    /// The count of `line` of `chunk` (0 when it did not run).
    public func count(_ chunk: String, line: Int) -> Int { chunks[chunk]?[line] ?? 0 }

    /// Adds the counts of `other` (the sum does not depend on the order of the additions).
    public mutating func add(_ other: LineCounts) {
        for (chunk, lines) in other.chunks {
            chunks[chunk, default: [:]].merge(lines, uniquingKeysWith: +)
        }
    }

    /// The counts of `self` beyond those of `earlier`, a reading taken before it on the same host
    /// (`LuaHost.lineCounts`): the lines one part of a run ran.
    public func since(_ earlier: LineCounts) -> LineCounts {
        var result = LineCounts()
        for (chunk, lines) in chunks {
            for (line, count) in lines where count > earlier.count(chunk, line: line) {
                result.chunks[chunk, default: [:]][line] = count - earlier.count(chunk, line: line)
            }
        }
        return result
    }

    public var isEmpty: Bool { chunks.values.allSatisfy(\.isEmpty) }
}
