import Foundation
import LuaHost
import RulesEngine
import RulesModel

/// The ranges of a persona's fields, checked after decoding: (field path, message) per problem.
enum PersonaChecks {
    /// A text of the persona, quoted in a message: at most 80 characters of it (a persona can hold
    /// a string of megabytes, and the message must stay readable).
    static func quoted(_ text: String) -> String { "\"\(SourceFile.excerpt(text, limit: 80))\"" }

    /// Problems found so far, as (field path, message), with the checks every section uses.
    struct Findings {
        var out: [(String, String)] = []

        mutating func add(_ path: String, _ message: String) { out.append((path, message)) }

        mutating func probability(_ path: String, _ value: Double) {
            if !(0...1).contains(value) { add(path, "expected a probability between 0 and 1, found \(value)") }
        }

        /// Probabilities of exclusive outcomes: each one, and their sum at most 1 (`rest` says what the rest does).
        mutating func shares(_ path: String, _ values: [(String, Double)], rest: String) {
            for (name, value) in values { probability(path.isEmpty ? name : "\(path).\(name)", value) }
            let sum = values.reduce(0) { $0 + $1.1 }
            if sum > 1 + 1e-9 {
                add(
                    path,
                    "\(values.map(\.0).joined(separator: " + ")) must be at most 1 (the rest \(rest)), found \(String(format: "%g", sum))")
            }
        }

        mutating func range(_ path: String, _ value: [Int], within bounds: ClosedRange<Int>) {
            guard value.count == 2 else {
                add(path, "expected two numbers { low, high }, found \(value.count)")
                return
            }
            if !bounds.contains(value[0]) || !bounds.contains(value[1]) || value[0] > value[1] {
                add(
                    path,
                    "expected { low, high } with \(bounds.lowerBound) ≤ low ≤ high ≤ \(bounds.upperBound), found { \(value[0]), \(value[1]) }"
                )
            }
        }

        mutating func within(_ path: String, _ value: Double, _ bounds: ClosedRange<Double>) {
            if !bounds.contains(value) {
                add(path, "expected \(PersonaChecks.number(bounds.lowerBound))…\(PersonaChecks.number(bounds.upperBound)), found \(value)")
            }
        }

        /// A name of 1–100 characters, not already in `names`.
        mutating func name(_ path: String, _ value: String, unique names: inout Set<String>, what: String) {
            if value.isEmpty || value.count > 100 { add(path, "expected a name of 1–100 characters") }
            if !names.insert(value).inserted { add(path, "\"\(value)\" is already \(what) of this persona") }
        }
    }

    static func number(_ x: Double) -> String { WholeNumber.text(x) }

    static func problems(of spec: PersonaSpec) -> [(String, String)] {
        var f = Findings()
        if spec.description.isEmpty { f.add("description", "must not be empty") }
        appProblems(spec, &f)
        f.probability("paid_share", spec.paidShare)
        f.probability("commit", spec.commit)
        f.range("commit_lead_minutes", spec.commitLeadMinutes, within: 0...360)
        f.shares("answer", [("yes", spec.answer.yes), ("no", spec.answer.no)], rest: "is no answer")
        f.range("first_look_minutes", spec.firstLookMinutes, within: 0...1440)
        if spec.reminderResponse.count != PressureLimits.maxTier + 1 {
            f.add(
                "reminder_response",
                "expected one probability per tier 0…\(PressureLimits.maxTier) (\(PressureLimits.maxTier + 1) values), found \(spec.reminderResponse.count)"
            )
        }
        for (i, p) in spec.reminderResponse.enumerated() { f.probability("reminder_response[\(i + 1)]", p) }
        f.probability("reminder_yes_share", spec.reminderYesShare)
        if spec.lostStreak.minStreak < 1 { f.add("lost_streak.min_streak", "expected at least 1, found \(spec.lostStreak.minStreak)") }
        if !(0...365).contains(spec.lostStreak.days) { f.add("lost_streak.days", "expected 0…365, found \(spec.lostStreak.days)") }
        for (name, value) in [("commit", spec.lostStreak.commit), ("yes", spec.lostStreak.yes)] where !(-1...1).contains(value) {
            f.add("lost_streak.\(name)", "expected a change of probability between -1 and 1, found \(value)")
        }
        f.probability("shield", spec.shield)
        var names: Set<String> = []
        if spec.habits.count > 50 { f.add("habits", "expected at most 50 tasks, found \(spec.habits.count)") }
        for (i, habit) in spec.habits.enumerated() {
            let path = "habits[\(i + 1)]"
            f.name("\(path).task", habit.task, unique: &names, what: "a task")
            f.probability("\(path).rate", habit.rate)
            if !(1...10).contains(habit.timesPerDay) { f.add("\(path).times_per_day", "expected 1…10, found \(habit.timesPerDay)") }
            habitProblems(habit, at: path, &f)
        }
        f.within("miga.opens_per_day", spec.miga.opensPerDay, 0...50)
        f.shares("miga", [("exit", spec.miga.exit), ("deepen", spec.miga.deepen)], rest: "proceeds to the app")
        if let earned = spec.earned { earnedProblems(earned, &f) }
        if let price = spec.responses.price {
            f.within("responses.price.sensitivity", price.sensitivity, 0...1)
            f.within("responses.price.reference", price.reference, 0...100)
            f.within("responses.price.balance", price.balance, 0...10)
        }
        if let fatigue = spec.responses.fatigue {
            f.within("responses.fatigue.per_reminder", fatigue.perReminder, 0...5)
            if !(1...90).contains(fatigue.days) { f.add("responses.fatigue.days", "expected 1…90, found \(fatigue.days)") }
        }
        if let streak = spec.responses.streak {
            for (name, value) in [("gradient", streak.gradient), ("at_stake", streak.atStake), ("after_break", streak.afterBreak)] {
                f.within("responses.streak.\(name)", value, -10...10)
            }
            if !(1...365).contains(streak.atRisk) { f.add("responses.streak.at_risk", "expected 1…365, found \(streak.atRisk)") }
            if !(0...365).contains(streak.breakDays) { f.add("responses.streak.break_days", "expected 0…365, found \(streak.breakDays)") }
        }
        if let earning = spec.responses.earning {
            if !(1...100_000).contains(earning.target) { f.add("responses.earning.target", "expected 1…100000, found \(earning.target)") }
            f.within("responses.earning.boost", earning.boost, 0...10)
        }
        if let leaving = spec.responses.leaving {
            f.probability("responses.leaving.base", leaving.base)
            for (name, value) in [
                ("denied", leaving.denied), ("high_tier", leaving.highTier), ("reminders", leaving.reminders), ("engaged", leaving.engaged),
            ] {
                f.within("responses.leaving.\(name)", value, -10...10)
            }
        }
        return f.out + settingsProblems(spec.settings)
    }

    /// `apps`: known names, once each, at least one; each app listed has its section (Pressure: `commit`
    /// and `answer`) and each section its app.
    static func appProblems(_ spec: PersonaSpec, _ f: inout Findings) {
        let names = Metric.App.used.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        if let listed = spec.listedApps {
            if listed.isEmpty { f.add("apps", "expected at least one of \(names)") }
            var seen = Set<String>()
            for (i, name) in listed.enumerated() {
                if Metric.App(persona: name) == nil {
                    var message = "expected one of \(names), found \(quoted(name))"
                    if let s = Suggestion.closest(to: name, among: Metric.App.used.map(\.rawValue)) {
                        message += "; did you mean '\(s)'?"
                    }
                    f.add("apps[\(i + 1)]", message)
                } else if !seen.insert(name).inserted {
                    f.add("apps[\(i + 1)]", "\(quoted(name)) is already listed")
                }
            }
            let listedText = listed.map { "\"\($0)\"" }.joined(separator: ", ")
            for field in spec.pressureFields where !spec.uses(.pressure) {
                f.add(field, "a Pressure field, but apps (\(listedText)) does not list \"pressure\"")
            }
            for (app, field) in [(Metric.App.habits, "habits"), (.miga, "miga"), (.earned, "earned")]
            where spec.sections.contains(app) && !spec.uses(app) {
                f.add(field, "apps (\(listedText)) does not list \"\(app.rawValue)\"")
            }
        } else if spec.sections.isEmpty {
            f.add("apps", "expected the apps its users use (\(names)), or the section of one of them")
        }
        if spec.uses(.pressure) {
            for field in ["commit", "answer"] where !spec.pressureFields.contains(field) {
                f.add(field, "missing: a Pressure user needs commit and answer")
            }
        }
        if spec.uses(.habits), spec.habits.isEmpty { f.add("habits", "expected at least one task for a habit tracker user") }
        if spec.uses(.miga), !spec.sections.contains(.miga) { f.add("miga", "missing: a MIGA user needs miga = { opens_per_day = … }") }
        if spec.uses(.earned), spec.earned == nil { f.add("earned", "missing: an Earned user needs earned = { … }") }
    }

    static func settingsProblems(_ s: PersonaSpec.Settings) -> [(String, String)] {
        var out: [(String, String)] = []
        let knownZone = (try? LocalClock(timeZoneID: s.timezone)) != nil
        var settings = UserSettings(timezoneIdentifier: knownZone ? s.timezone : "UTC")
        if !knownZone { out.append(("settings.timezone", "unknown time zone \(quoted(s.timezone))")) }
        do { settings.commitmentDeadline = try LocalTime(s.commitmentDeadline) } catch {
            out.append(("settings.commitment_deadline", "expected \"HH:MM\", found \(quoted(s.commitmentDeadline))"))
        }
        do { settings.checkinWindowClose = try LocalTime(s.checkinWindowClose) } catch {
            out.append(("settings.checkin_window_close", "expected \"HH:MM\", found \(quoted(s.checkinWindowClose))"))
        }
        if let mode = PersonalityMode(rawValue: s.personalityMode) {
            settings.personalityMode = mode
        } else {
            out.append(("settings.personality_mode", "expected \"PROFESSIONAL\" or \"BRUTAL\", found \(quoted(s.personalityMode))"))
        }
        if !out.contains(where: { $0.0 != "settings.timezone" }) {
            do { try settings.validate() } catch { out.append(("settings", "\(error)")) }
        }
        return out
    }
}
