import LuaHost
import RulesModel

/// The proofs of modes.lua's `window_active` and `effective_mode`, each over a sampled domain
/// (`WindowProofDomain`, `EffectiveModeProofDomain`) that `gen.window_active()` and
/// `gen.effective_mode()` draw from.
extension ModePolicy {
    /// The inputs `window_active(window, now)` is proved over, in the proof's order: every window
    /// of 6 day masks (none, Monday, Sunday, the weekdays, every other day, every day) and bounds on
    /// the 4-hour marks (00:00, 04:00, …, 20:00: equal bounds, windows within a day and across
    /// midnight), at 7 times of each weekday. Input 0 is the plainest: mask 0, 00:00–00:00, Monday 00:00.
    package struct WindowProofDomain: Sendable {
        package static let masks = [0, 1, 64, 31, 85, 127]
        package static let bounds = Array(stride(from: 0, to: 24 * 60, by: 240))
        package static let weekdays = Array(1...7)
        package static let minutes = [0, 59, 239, 240, 719, 1200, 1439]

        /// One input: the window's day mask and bounds, and the instant.
        package struct Input: Sendable {
            package var mask: Int, start: Int, end: Int, weekday: Int, minutes: Int
            /// The window (`{days_mask, start_minutes, end_minutes}`) and the instant (`{weekday,
            /// minutes}`) as `window_active` gets them.
            var records: (window: ModeCandidate.Window, now: LocalMoment) {
                (
                    ModeCandidate.Window(daysMask: mask, startMinutes: start, endMinutes: end),
                    LocalMoment(weekday: weekday, minutes: minutes)
                )
            }
            var call: String {
                "window_active(mask \(mask), \(LocalTime(minutes: start)!)–\(LocalTime(minutes: end)!), weekday \(weekday) at \(LocalTime(minutes: minutes)!))"
            }
        }

        package init() {}

        package var count: Int { Self.masks.count * Self.bounds.count * Self.bounds.count * Self.weekdays.count * Self.minutes.count }

        /// Input `index` (0 ..< `count`): the proof's loops, the mask outermost and the time of day innermost.
        package func input(_ index: Int) -> Input {
            var rest = index
            func next(_ values: [Int]) -> Int {
                defer { rest /= values.count }
                return values[rest % values.count]
            }
            let minutes = next(Self.minutes), weekday = next(Self.weekdays), end = next(Self.bounds), start = next(Self.bounds)
            return Input(mask: next(Self.masks), start: start, end: end, weekday: weekday, minutes: minutes)
        }
    }

    /// One mode of `effective_mode`'s proof: its priority, strictness and manual override, and
    /// either no window or one always open (so whether it is in force does not depend on the time).
    package struct ProofMode: Sendable {
        package var priority: Int, strictness: Strictness, manual: ManualOverrideState, inForce: Bool, alwaysOpen: Bool
        /// Whether the mode is in force, as the seed document says (a manual override in force decides).
        var active: Bool { (inForce && manual == .forcedOn) || (!(inForce && manual == .forcedOff) && alwaysOpen) }
        /// The mode as `effective_mode` gets it (as the engine passes it).
        package var candidate: ModeCandidate {
            ModeCandidate(
                priority: priority, strictness: strictness, manualState: manual, overrideInForce: inForce,
                windows: alwaysOpen ? [ModeCandidate.Window(daysMask: 127, startMinutes: 0, endMinutes: 0)] : [])
        }
        var text: String {
            "priority \(priority) \(strictness.rawValue) \(manual.rawValue)\(inForce ? " (in force)" : "")\(alwaysOpen ? " always open" : " no window")"
        }
    }

    /// The inputs `effective_mode(modes, now)` is proved over, in the proof's order: no mode, then
    /// every list of one and of two modes of priority 0 or 1, every strictness and manual override
    /// (in force or expired), with no window or one always open, on Monday at 10:00. Input 0 is
    /// the plainest: no mode.
    package struct EffectiveModeProofDomain: Sendable {
        /// Every mode of the proof, in its order (priority outermost).
        package static let modes: [ProofMode] = (0...1).flatMap { priority in
            Strictness.allCases.flatMap { strictness in
                ManualOverrideState.allCases.flatMap { manual in
                    [false, true].flatMap { inForce in
                        [false, true].map {
                            ProofMode(priority: priority, strictness: strictness, manual: manual, inForce: inForce, alwaysOpen: $0)
                        }
                    }
                }
            }
        }
        /// The instant of every input: Monday at 10:00.
        package static let moment = LocalMoment(weekday: 1, minutes: 600)

        package init() {}

        package var count: Int { 1 + Self.modes.count + Self.modes.count * Self.modes.count }

        /// Input `index` (0 ..< `count`): no mode, the lists of one mode, then those of two.
        package func input(_ index: Int) -> [ProofMode] {
            let n = Self.modes.count
            if index == 0 { return [] }
            if index <= n { return [Self.modes[index - 1]] }
            let pair = index - 1 - n
            return [Self.modes[pair / n], Self.modes[pair % n]]
        }
    }

    func prove(in file: RuleFile, host: LuaHost) -> [Counterexamples] {
        [proveWindows(file, host), proveEffectiveMode(file, host)]
    }

    private func proveWindows(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: windowActive, name: "window_active", file: file)
        failures.unproved = "day masks other than 0, 1, 64, 31, 85, 127, windows not on 4-hour bounds and other times of day (sampled)"
        let domain = WindowProofDomain()
        for index in 0..<domain.count {
            if failures.isFinished(host) { break }
            failures.inputs += 1
            let input = domain.input(index)
            let (mask, start, end, weekday, minutes) = (input.mask, input.start, input.end, input.weekday, input.minutes)
            var call: String { input.call }
            do {
                let (window, now) = input.records
                let out = try host.call(windowActive, Pooled(window), Pooled(now), returning: LuaValue.self)
                guard case .boolean(let active) = out else {
                    failures.record(kind: "type", "\(call) returned \(out.errorDescription), expected a boolean")
                    continue
                }
                let onDay = mask >> (weekday - 1) & 1 == 1
                if active && mask == 0 {
                    failures.record(kind: "mask", "\(call) is open with no day in its mask")
                } else if active && start < end && (minutes < start || minutes >= end) {
                    failures.record(kind: "bounds", "\(call) is open outside its hours")
                } else if active && start > end && minutes >= end && minutes < start {
                    failures.record(kind: "bounds", "\(call) is open outside its hours (a window across midnight)")
                } else if !active && onDay && start != end && minutes == start {
                    failures.record(kind: "start", "\(call) is closed at its start on a day of its mask")
                }
            } catch {
                failures.record(error, calling: call)
            }
        }
        return failures
    }

    private func proveEffectiveMode(_ file: RuleFile, _ host: LuaHost) -> Counterexamples {
        var failures = Counterexamples(function: effectiveMode, name: "effective_mode", file: file)
        failures.unproved =
            "modes with windows other than none or always open, priorities above 1 (sampled), and instants other than Monday 10:00"
        let domain = EffectiveModeProofDomain()
        for index in 0..<domain.count {
            if failures.isFinished(host) { break }
            failures.inputs += 1
            let list = domain.input(index)
            var call: String { "effective_mode([\(list.map(\.text).joined(separator: "; "))], Monday 10:00)" }
            do {
                let out = try host.call(effectiveMode, PooledList(list.map(\.candidate)), Pooled(EffectiveModeProofDomain.moment), returning: LuaValue.self)
                let active = list.enumerated().filter { $0.element.active }
                if out.isNil {
                    if !active.isEmpty { failures.record(kind: "none", "\(call) returned nil although a mode is in force") }
                    continue
                }
                guard let index = out.integerValue, (1...list.count).contains(Int(index)) else {
                    failures.record(kind: "type", "\(call) returned \(out.errorDescription), expected nil or a position 1…\(list.count)")
                    continue
                }
                let chosen = list[Int(index) - 1]
                if !chosen.active {
                    failures.record(kind: "inactive", "\(call) chose mode \(index), which is not in force")
                } else if chosen.priority < active.map(\.element.priority).max()! {
                    failures.record(kind: "priority", "\(call) chose mode \(index) over a mode of higher priority")
                }
            } catch {
                failures.record(error, calling: call)
            }
        }
        return failures
    }
}
