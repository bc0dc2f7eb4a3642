import RulesModel

extension PersonaChecks {
    /// The checks of a persona's `earned` section.
    static func earnedProblems(_ e: EarnedPersona, _ f: inout Findings) {
        f.probability("earned.share", e.share)
        if e.apps.isEmpty || e.apps.count > 20 { f.add("earned.apps", "expected 1–20 distracting apps, found \(e.apps.count)") }
        apps("earned.apps", e.apps, &f)
        var names: Set<String> = []
        for (i, mode) in e.modes.enumerated() {
            let path = "earned.modes[\(i + 1)]"
            f.name("\(path).name", mode.name, unique: &names, what: "a mode")
            if Strictness(rawValue: mode.strictness) == nil {
                f.add("\(path).strictness", "expected \"GENTLE\", \"STRICT\" or \"HARD\", found \(PersonaChecks.quoted(mode.strictness))")
            }
            if !(-1000...1000).contains(mode.priority) { f.add("\(path).priority", "expected -1000…1000, found \(mode.priority)") }
            for (j, window) in mode.windows.enumerated() {
                let at = "\(path).windows[\(j + 1)]"
                if window.days.isEmpty || !window.days.allSatisfy({ (1...7).contains($0) }) || Set(window.days).count != window.days.count {
                    f.add(
                        "\(at).days",
                        "expected distinct ISO weekdays 1 (Monday)…7 (Sunday), found { \(window.days.map(String.init).joined(separator: ", ")) }"
                    )
                }
                for (field, text) in [("from", window.from), ("to", window.to)] where (try? LocalTime(text)) == nil {
                    f.add("\(at).\(field)", "expected \"HH:MM\", found \(PersonaChecks.quoted(text))")
                }
            }
            if let blocked = mode.blockedApps { apps("\(path).blocked_apps", blocked, &f) }
        }
        f.probability("earned.qr_key", e.qrKey)
        names = []
        if e.habits.count > 50 { f.add("earned.habits", "expected at most 50 habits, found \(e.habits.count)") }
        for (i, habit) in e.habits.enumerated() {
            let path = "earned.habits[\(i + 1)]"
            f.name("\(path).name", habit.name, unique: &names, what: "a habit")
            if let reward = habit.rewardCredits, !(0...100).contains(reward) {
                f.add("\(path).reward_credits", "expected 0…100, found \(reward)")
            }
            f.probability("\(path).rate", habit.rate)
        }
        f.probability("earned.habits_together", e.habitsTogether)
        f.within("earned.focus.sessions_per_day", e.focus.sessionsPerDay, 0...10)
        if e.focus.minutes.isEmpty || !e.focus.minutes.allSatisfy({ (1...240).contains($0) }) {
            f.add(
                "earned.focus.minutes",
                "expected 1–240 minutes per choice, at least one choice, found { \(e.focus.minutes.map(String.init).joined(separator: ", ")) }"
            )
        }
        f.probability("earned.focus.quit_early", e.focus.quitEarly)
        hours("earned.focus.hours", e.focus.hours, &f)
        f.within("earned.urges.per_day", e.urges.perDay, 0...100)
        hours("earned.urges.hours", e.urges.hours, &f)
        f.shares("earned.gate", [("credits", e.gate.credits), ("quest", e.gate.quest), ("emergency", e.gate.emergency)], rest: "gives up")
        if e.gate.creditMinutes.isEmpty || !e.gate.creditMinutes.allSatisfy({ (1...1440).contains($0) }) {
            f.add(
                "earned.gate.credit_minutes",
                "expected lengths of 1–1440 minutes, at least one, found { \(e.gate.creditMinutes.map(String.init).joined(separator: ", ")) }"
            )
        }
        if e.gate.questTypes.isEmpty { f.add("earned.gate.quest_types", "expected at least one quest type") }
        for (i, type) in e.gate.questTypes.enumerated() where QuestType(rawValue: type) == nil {
            f.add(
                "earned.gate.quest_types[\(i + 1)]",
                "expected \(QuestType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \(PersonaChecks.quoted(type))")
        }
        f.probability("earned.gate.insist", e.gate.insist)
        f.shares("earned.quest", [("complete", e.quest.complete), ("fail", e.quest.fail), ("cancel", e.quest.cancel)], rest: "expires")
        f.range("earned.quest.minutes", e.quest.minutes, within: 1...60)
    }

    /// Urges, focus sessions and everything they lead to (a quest, a retry) happen between 05:00
    /// (after Earned's day starts) and 23:00, so that the day's events end before the next day's.
    static let wakingHours = 5...23

    /// `{ from, to }`: from `from`:00 until `to`:00, within the waking hours.
    private static func hours(_ path: String, _ value: [Int], _ f: inout Findings) {
        let before = f.out.count
        f.range(path, value, within: wakingHours)
        if f.out.count == before, value[0] == value[1] {
            f.add(path, "expected { from, to } with from < to, found { \(value[0]), \(value[1]) }")
        }
    }

    private static func apps(_ path: String, _ apps: [String], _ f: inout Findings) {
        var seen: Set<String> = []
        for (i, app) in apps.enumerated() {
            do { _ = try AppID.parse(app) } catch {
                f.add("\(path)[\(i + 1)]", "expected an AppId \"android:…\" or \"iosToken:…\", found \(PersonaChecks.quoted(app))")
            }
            if !seen.insert(app).inserted { f.add("\(path)[\(i + 1)]", "\"\(app)\" is listed twice") }
        }
    }
}
