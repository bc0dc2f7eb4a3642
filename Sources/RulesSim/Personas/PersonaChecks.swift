import RulesEngine
import RulesModel

/// The ranges of a persona's fields, checked after decoding: (field path, message) per problem.
enum PersonaChecks {
    static func problems(of spec: PersonaSpec) -> [(String, String)] {
        var out: [(String, String)] = []
        func probability(_ path: String, _ value: Double) {
            if !(0...1).contains(value) { out.append((path, "expected a probability between 0 and 1, found \(value)")) }
        }
        func range(_ path: String, _ value: [Int], within bounds: ClosedRange<Int>) {
            guard value.count == 2 else {
                out.append((path, "expected two numbers { low, high }, found \(value.count)"))
                return
            }
            if !bounds.contains(value[0]) || !bounds.contains(value[1]) || value[0] > value[1] {
                out.append((path, "expected { low, high } with \(bounds.lowerBound) ≤ low ≤ high ≤ \(bounds.upperBound), found { \(value[0]), \(value[1]) }"))
            }
        }
        if spec.description.isEmpty { out.append(("description", "must not be empty")) }
        probability("paid_share", spec.paidShare)
        probability("commit", spec.commit)
        range("commit_lead_minutes", spec.commitLeadMinutes, within: 0...360)
        probability("answer.yes", spec.answer.yes)
        probability("answer.no", spec.answer.no)
        if spec.answer.yes + spec.answer.no > 1 + 1e-9 {
            out.append(("answer", "yes + no must be at most 1 (the rest is no answer), found \(spec.answer.yes + spec.answer.no)"))
        }
        range("first_look_minutes", spec.firstLookMinutes, within: 0...1440)
        if spec.reminderResponse.count != PressureLimits.maxTier + 1 {
            out.append(("reminder_response", "expected one probability per tier 0…\(PressureLimits.maxTier) (\(PressureLimits.maxTier + 1) values), found \(spec.reminderResponse.count)"))
        }
        for (i, p) in spec.reminderResponse.enumerated() { probability("reminder_response[\(i + 1)]", p) }
        probability("reminder_yes_share", spec.reminderYesShare)
        if spec.lostStreak.minStreak < 1 { out.append(("lost_streak.min_streak", "expected at least 1, found \(spec.lostStreak.minStreak)")) }
        if !(0...365).contains(spec.lostStreak.days) { out.append(("lost_streak.days", "expected 0…365, found \(spec.lostStreak.days)")) }
        for (name, value) in [("commit", spec.lostStreak.commit), ("yes", spec.lostStreak.yes)] where !(-1...1).contains(value) {
            out.append(("lost_streak.\(name)", "expected a change of probability between -1 and 1, found \(value)"))
        }
        probability("shield", spec.shield)
        var names: Set<String> = []
        for (i, habit) in spec.habits.enumerated() {
            let path = "habits[\(i + 1)]"
            if habit.task.isEmpty || habit.task.count > 100 { out.append(("\(path).task", "expected a name of 1–100 characters")) }
            if !names.insert(habit.task).inserted { out.append(("\(path).task", "\"\(habit.task)\" is already a task of this persona")) }
            probability("\(path).rate", habit.rate)
            if !(1...10).contains(habit.timesPerDay) { out.append(("\(path).times_per_day", "expected 1…10, found \(habit.timesPerDay)")) }
        }
        if !(0...50).contains(spec.miga.opensPerDay) { out.append(("miga.opens_per_day", "expected 0…50, found \(spec.miga.opensPerDay)")) }
        probability("miga.exit", spec.miga.exit)
        probability("miga.deepen", spec.miga.deepen)
        if spec.miga.exit + spec.miga.deepen > 1 + 1e-9 {
            out.append(("miga", "exit + deepen must be at most 1 (the rest proceeds to the app), found \(spec.miga.exit + spec.miga.deepen)"))
        }
        out += settingsProblems(spec.settings)
        return out
    }

    static func settingsProblems(_ s: PersonaSpec.Settings) -> [(String, String)] {
        var out: [(String, String)] = []
        let knownZone = (try? LocalClock(timeZoneID: s.timezone)) != nil
        var settings = UserSettings(timezoneIdentifier: knownZone ? s.timezone : "UTC")
        if !knownZone { out.append(("settings.timezone", "unknown time zone \"\(s.timezone)\"")) }
        do { settings.commitmentDeadline = try LocalTime(s.commitmentDeadline) } catch {
            out.append(("settings.commitment_deadline", "expected \"HH:MM\", found \"\(s.commitmentDeadline)\""))
        }
        do { settings.checkinWindowClose = try LocalTime(s.checkinWindowClose) } catch {
            out.append(("settings.checkin_window_close", "expected \"HH:MM\", found \"\(s.checkinWindowClose)\""))
        }
        if let mode = PersonalityMode(rawValue: s.personalityMode) { settings.personalityMode = mode } else {
            out.append(("settings.personality_mode", "expected \"PROFESSIONAL\" or \"BRUTAL\", found \"\(s.personalityMode)\""))
        }
        if !out.contains(where: { $0.0 != "settings.timezone" }) {
            do { try settings.validate() } catch { out.append(("settings", "\(error)")) }
        }
        return out
    }
}
