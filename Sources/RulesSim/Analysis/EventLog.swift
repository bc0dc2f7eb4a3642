import RulesEngine
import RulesModel

/// The apps' event log as `analyze` reads it: replay's JSON lines (docs/replay.md), each user's
/// events in the order logged. What it cannot take is counted by kind, with the first lines as
/// examples (``Problems``), never dropped in silence.
package struct EventLog: Sendable {
    /// The users in the order of their first event, and each one's events.
    package private(set) var users: [String] = []
    package private(set) var events: [String: [EngineEvent]] = [:]
    /// The input lines each user's events came from (for messages).
    package private(set) var lines: [String: [Int]] = [:]
    /// The latest event's time (of every user, whatever the shard): the days that ended before it are the days counted.
    package private(set) var end: EpochMillis = .min
    /// Events read (lines that are events, taken or not).
    package private(set) var eventCount = 0
    /// The log's events, whatever the shard (what tells shards of one log from another's).
    package private(set) var logEvents = 0
    package var problems = Problems()
    /// The users ``nextUsers(upTo:)`` has given.
    var cursor = 0

    /// The most events one log may hold (each is kept in memory until the users are replayed).
    package static let maxEvents = 50_000_000

    package init() {}

    /// Reads line `number` (as read, its line ending included). Blank lines and `#` comments are skipped.
    /// The users kept (`analyze --shard i/n`: the shard's; lines that are no event count in shard 1).
    package var shard = Shard.whole

    package mutating func add(line raw: [UInt8], number: Int) throws(AnalysisError) {
        // A line as replay reads it: blank lines, comments and a byte-order mark before line 1 are no events.
        let event: EngineEvent
        switch Replay.event(raw, number: number) {
        case nil: return
        case .success(let read): event = read
        case .failure(let error):
            if shard.index == 1 {
                eventCount += 1
                problems.note(.malformed, line: number, "\(error.message)")
            }
            return
        }
        logEvents += 1
        guard shard.holds(user: event.user) else {
            // Another shard's user: its events count for the log's end, as when the whole is read (an
            // event out of order, before one of the user's, never moves the end).
            end = max(end, event.at.millis)
            return
        }
        eventCount += 1
        guard eventCount <= Self.maxEvents else {
            throw AnalysisError("line \(number): more than \(Self.maxEvents) events; analyse the log by user shards (--shard i/n)")
        }
        if let previous = events[event.user]?.last, event.at < previous.at {
            problems.note(
                .outOfOrder, line: number,
                "\(event.user) at \(event.at), before its event of line \(lines[event.user]!.last!) at \(previous.at)")
            return
        }
        if events[event.user] == nil { users.append(event.user) }
        events[event.user, default: []].append(event)
        lines[event.user, default: []].append(number)
        end = max(end, event.at.millis)
    }

    /// The part of the log that `chosen` users make, as reading their lines alone would give it:
    /// their events and lines, in the log's order of users, and the latest of their events as its
    /// end. The problems noted while reading stay the whole log's (a line that is no event is no
    /// user's): the part has none. (The calibration on simulated rollouts splits one log into
    /// experiments of disjoint users so.)
    package func part(users chosen: Set<String>) -> EventLog {
        var part = EventLog()
        part.shard = shard
        for user in users where chosen.contains(user) {
            let theirs = events[user]!
            part.users.append(user)
            part.events[user] = theirs
            part.lines[user] = lines[user]
            part.eventCount += theirs.count
            part.end = max(part.end, theirs.last!.at.millis)
        }
        return part
    }

    /// What the log could not give the analysis, by kind: how many, and the first few.
    package struct Problems: Sendable, Equatable {
        package enum Kind: String, Sendable, CaseIterable {
            case malformed = "lines that are not events"
            case outOfOrder = "events out of order (before the user's previous event)"
            case noExposure = "users with no exposure to the experiment"
            case unknownArm = "users exposed to an arm the bundle does not have"
            case twoArms = "users exposed to two arms"
            case otherRevision = "users exposed under another revision of the bundle"
            case otherExperiment = "exposures to other experiments (ignored)"
            case noDays = "users with no whole day before the log ends"
            case notRebuilt = "users whose database rows hold events it cannot give back"
            case inconsistentRows = "users whose database rows contradict one another"

            /// What happens to what it counts.
            package var consequence: String {
                switch self {
                case .malformed, .outOfOrder: "left out"
                case .noExposure, .unknownArm, .twoArms, .otherRevision, .noDays, .notRebuilt, .inconsistentRows:
                    "left out of every arm"
                case .otherExperiment: "ignored"
                }
            }
        }

        package private(set) var counts: [Kind: Int] = [:]
        package private(set) var examples: [Kind: [String]] = [:]
        /// Each example's place in the input (``KeptExamples``): its line, or its user's position.
        package private(set) var places: [Kind: [Int]] = [:]
        /// Examples kept per kind.
        package static let examplesKept = 3

        package init() {}

        /// Notes one of `kind`; `place`: where it is in the input (default: `line`; ``KeptExamples``).
        package mutating func note(_ kind: Kind, line: Int? = nil, place: Int? = nil, _ text: String) {
            counts[kind, default: 0] += 1
            if examples[kind, default: []].count < Self.examplesKept {
                examples[kind, default: []].append((line.map { "line \($0): " } ?? "") + text)
                places[kind, default: []].append(place ?? line ?? 0)
            }
        }

        /// Adds `count` of `kind` with their `examples` (a shard's, read back) at their `places` (default: 0).
        package mutating func add(_ kind: Kind, count: Int, examples: [String], places: [Int]? = nil) {
            guard count > 0 else { return }
            counts[kind, default: 0] += count
            for (i, example) in examples.enumerated() where self.examples[kind, default: []].count < Self.examplesKept {
                self.examples[kind, default: []].append(example)
                self.places[kind, default: []].append(places?[i] ?? 0)
            }
        }

        package var isEmpty: Bool { counts.isEmpty }

        package static func + (a: Problems, b: Problems) -> Problems {
            var sum = a
            for kind in Kind.allCases {
                if let n = b.counts[kind] { sum.counts[kind, default: 0] += n }
                for (i, example) in (b.examples[kind] ?? []).enumerated() where sum.examples[kind, default: []].count < examplesKept {
                    sum.examples[kind, default: []].append(example)
                    sum.places[kind, default: []].append(b.places[kind]?[i] ?? 0)
                }
            }
            return sum
        }

        /// The problems of parts of one input read apart (shards of its users), as reading the
        /// whole gives them: the counts added, the first examples by place.
        package static func merged(_ parts: [Problems]) -> Problems {
            var sum = Problems()
            for kind in Kind.allCases {
                sum.counts[kind] = parts.compactMap { $0.counts[kind] }.reduce(nil) { ($0 ?? 0) + $1 }
                let kept = KeptExamples.first(
                    parts.map { zip($0.places[kind] ?? [], $0.examples[kind] ?? []).map { (place: $0, text: $1) } }, kept: examplesKept)
                if !kept.isEmpty { (sum.places[kind], sum.examples[kind]) = (kept.map(\.place), kept.map(\.text)) }
            }
            return sum
        }

        /// Equal when they count and show the same (the places are how they were read).
        package static func == (a: Problems, b: Problems) -> Bool { (a.counts, a.examples) == (b.counts, b.examples) }

        /// One line per kind found: `3 events out of order (…): left out; e.g. line 12: …`.
        package var lines: [String] {
            Kind.allCases.compactMap { kind in
                counts[kind].map { n in
                    "\(n) \(kind.rawValue): \(kind.consequence)" + (examples[kind]?.first.map { "; e.g. \($0)" } ?? "")
                }
            }
        }

        /// JSON: by kind, the count and the examples.
        package var json: JSONValue {
            .object(
                Kind.allCases.compactMap { kind in
                    counts[kind].map { n in
                        (
                            kind.key,
                            .object([
                                ("count", .int(n)), ("consequence", .string(kind.consequence)),
                                ("examples", .array((examples[kind] ?? []).map(JSONValue.string))),
                            ])
                        )
                    }
                })
        }
    }
}

extension EventLog.Problems.Kind {
    /// Its key in JSON reports.
    package var key: String {
        switch self {
        case .malformed: "malformed_lines"
        case .outOfOrder: "out_of_order"
        case .noExposure: "no_exposure"
        case .unknownArm: "unknown_arm"
        case .twoArms: "two_arms"
        case .otherRevision: "other_revision"
        case .otherExperiment: "other_experiment"
        case .noDays: "no_whole_day"
        case .notRebuilt: "not_rebuilt"
        case .inconsistentRows: "inconsistent_rows"
        }
    }
}
