import Foundation
import LuaHost
import RulesModel
import RulesStore

/// `rulesrun test --update`: writes what the engine now outputs into the `expect` lines of a rule
/// folder's scenarios (as `jest -u` writes snapshots). Each scenario is replayed whole, as
/// `ScenarioTest` replays it; at each line, every expected value that does not match what is found
/// at its path is replaced by the value found (`{"$absent": true}` where nothing is), in the text
/// of the line: the other members, lines, spaces and order are left as they are. A matcher that
/// does not hold (`{"$above": 2}`) is not replaced (it says more than one value): it is reported.
/// A scenario of a folder the folder extends is not written (it is not the folder's own).
package enum ScenarioUpdate {
    /// One value replaced: `tests/days.jsonl:3: state.current_streak: 2 → 3`.
    package struct Change: Sendable {
        package let file: String
        package let line: Int
        package let path: String
        package let old: String
        package let new: String

        package var text: String { "\(file):\(line): \(path): \(old) → \(new)" }
    }

    /// What an update did: the values replaced (in files written), and what it left (a matcher that
    /// does not hold, an inherited scenario that would change, a file that could not be read or written).
    package struct Report: Sendable {
        package var changes: [Change] = []
        package var notUpdated: [String] = []
    }

    /// Updates the scenarios of `path` (and, with `inherit`, reports those it inherits that would
    /// change) whose name `selected` accepts, against the rule set validated as `rules`.
    package static func run(
        _ path: String, rules: RuleSnapshot, inherit: Bool = true, selected: (String) -> Bool = { _ in true }
    ) throws -> Report {
        var report = Report()
        for file in try RuleTestRunner.testFiles(path, inherit: inherit) where file.isText && file.url.pathExtension == "jsonl" {
            let scenario = ScenarioTest(url: file.url, label: file.label, folder: file.folder)
            guard selected(scenario.name) else { continue }
            do {
                let bytes = try SourceFile.read(file.url.path, maxBytes: ScenarioTest.maxBytes)
                guard let text = String(validating: bytes, as: UTF8.self) else {
                    report.notUpdated.append("\(file.label): not updated: not UTF-8 text")
                    continue
                }
                let (lines, changes, matchers) = try updated(text, label: file.label, rules: rules)
                report.notUpdated += matchers
                guard !changes.isEmpty else { continue }
                guard file.depth == 0 else {
                    report.notUpdated.append(
                        "\(file.label): not updated: it is inherited from \(file.folder), outside \(path) (\(changes.count) expected value\(changes.count == 1 ? "" : "s") would change); update it in its own folder, or mark it in \(path) with expect_failure or skip"
                    )
                    continue
                }
                let written = lines.joined(separator: "\n")
                // Atomically: a temporary file beside it, renamed over it.
                try Data(written.utf8).write(to: file.url, options: .atomic)
                report.changes += changes
            } catch {
                report.notUpdated.append("\(file.label): not updated: \(error)")
            }
        }
        return report
    }

    /// The lines of `text` with their expected values replaced, the changes, and the matchers left.
    static func updated(
        _ text: String, label: String, rules: RuleSnapshot
    ) throws -> (lines: [String], changes: [Change], matchers: [String]) {
        let ruleSet = try rules.load()
        ruleSet.host.printHandler = { _ in }
        // As a scenario is run (`ScenarioTest`): the users' rows in memory.
        let replay = Replay.inMemory(rules: ruleSet, ruleFolder: rules.path)
        // Split at line feeds only (a `\r` stays at the end of its line), joined back the same way.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        var changes: [Change] = []
        var matchers: [String] = []
        replay.inMemory {
            for index in lines.indices {
                let number = index + 1
                let trimmed = Replay.trimmed(lines[index])
                if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
                guard let (event, expectations) = try? ScenarioTest.split(trimmed) else { continue }
                let state = expectations.contains { LuaPath.isWithin($0.path, "state") }
                let out = replay.output(forLine: event, number: number, state: state)
                var replacements: [(range: Range<Int>, text: String)] = []
                let spans = JSONSpans.expectMembers(Array(lines[index].utf8)) ?? []
                for expectation in expectations {
                    let found = ScenarioTest.value(at: expectation.keys, in: out)
                    guard !expectation.expected.matches(found) else { continue }
                    if expectation.value.holdsMatcher {
                        matchers.append(
                            "\(label):\(number): \(expectation.path): not updated: \(expectation.value) is a matcher (write it by hand); found \(found.map(\.description) ?? "nothing")"
                        )
                        continue
                    }
                    guard let span = spans.first(where: { $0.key == expectation.path }) else { continue }
                    let new = found?.description ?? "{\"$absent\": true}"
                    let bytes = Array(lines[index].utf8)
                    let old = String(decoding: bytes[span.value], as: UTF8.self)
                    replacements.append((span.value, new))
                    changes.append(Change(file: label, line: number, path: expectation.path, old: old, new: new))
                }
                var bytes = Array(lines[index].utf8)
                for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
                    bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
                }
                if !replacements.isEmpty { lines[index] = String(decoding: bytes, as: UTF8.self) }
            }
        }
        return (lines, changes, matchers)
    }
}

extension JSONValue {
    /// Whether the value is, or holds, a matcher (an object whose keys start with `$`).
    fileprivate var holdsMatcher: Bool {
        switch self {
        case .object(let members): members.contains { $0.0.hasPrefix("$") || $0.1.holdsMatcher }
        case .array(let elements): elements.contains { $0.holdsMatcher }
        default: false
        }
    }
}

/// Where the members of a JSON line's `expect` object are in its bytes: each key (decoded) and
/// the byte range of its value as written, so that a value can be replaced leaving the rest of the
/// line as it is.
enum JSONSpans {
    static func expectMembers(_ bytes: [UInt8]) -> [(key: String, value: Range<Int>)]? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard let top = scanner.members(),
            let expect = top.last(where: { $0.key == "expect" }), bytes[expect.value.lowerBound] == UInt8(ascii: "{")
        else { return nil }
        var inner = Scanner(bytes: bytes, at: expect.value.lowerBound)
        return inner.members()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var at = 0

        init(bytes: [UInt8], at: Int = 0) {
            self.bytes = bytes
            self.at = at
        }

        mutating func skipSpace() {
            // A switch, not an array's contains: a debug build made the array at each byte.
            while at < bytes.count, JSONLine.isSpace(bytes[at]) { at += 1 }
        }

        /// The members of the object that starts here.
        mutating func members() -> [(key: String, value: Range<Int>)]? {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "{") else { return nil }
            at += 1
            var members: [(key: String, value: Range<Int>)] = []
            skipSpace()
            if at < bytes.count, bytes[at] == UInt8(ascii: "}") { return members }
            while at < bytes.count {
                skipSpace()
                let keyStart = at
                guard skipString(),
                    let key = try? JSONSerialization.jsonObject(with: Data(bytes[keyStart..<at]), options: .fragmentsAllowed) as? String
                else { return nil }
                skipSpace()
                guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return nil }
                at += 1
                skipSpace()
                let valueStart = at
                guard skipValue() else { return nil }
                members.append((key, valueStart..<at))
                skipSpace()
                guard at < bytes.count else { return nil }
                if bytes[at] == UInt8(ascii: "}") { return members }
                guard bytes[at] == UInt8(ascii: ",") else { return nil }
                at += 1
            }
            return nil
        }

        mutating func skipString() -> Bool {
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { return false }
            at += 1
            while at < bytes.count {
                if bytes[at] == UInt8(ascii: "\\") {
                    at += 2
                } else if bytes[at] == UInt8(ascii: "\"") {
                    at += 1
                    return true
                } else {
                    at += 1
                }
            }
            return false
        }

        mutating func skipValue() -> Bool {
            guard at < bytes.count else { return false }
            switch bytes[at] {
            case UInt8(ascii: "\""): return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while at < bytes.count {
                    switch bytes[at] {
                    case UInt8(ascii: "\""):
                        guard skipString() else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            at += 1
                            return true
                        }
                    default: break
                    }
                    at += 1
                }
                return false
            default:
                let start = at
                while at < bytes.count,
                    ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0D, 0x0A].contains(bytes[at])
                {
                    at += 1
                }
                return at > start
            }
        }
    }
}
