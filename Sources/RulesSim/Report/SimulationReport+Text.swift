import Foundation
import RulesEngine
import LuaHost
import RulesModel

extension SimulationReport {
    /// The report for people: one line per day, then the summary.
    package func table() -> String {
        let s = ReportSummary(self)
        let r = run
        let start = try? DayID(r.start)
        let last = start?.adding(days: max(0, r.days - 1))?.rawValue ?? ""
        var out =
            "rulesrun simulate \(r.duration): \(s.users) user\(s.users == 1 ? "" : "s") (\(r.personas)), seed \(r.seed), rules \(r.rules) (\(r.engine == "lua" ? "Lua" : "native reference"))\n"
        out += "\(r.start) to \(last), \(s.days) day\(s.days == 1 ? "" : "s")"
        if r.usersFrom != 0 || r.usersTo != r.users { out += ", users \(UserRange(r.usersFrom..<r.usersTo)) of \(r.users)" }
        if r.idOffset != 0 { out += ", user ids \(UserRange(r.usersFrom + r.idOffset..<r.usersTo + r.idOffset)) (appended)" }
        out += "\n\n"
        // The columns and lines of the apps the cohort uses.
        let apps = Metric.apps(of: s)
        let (pressure, habits, miga, earned) = (apps.contains(.pressure), apps.contains(.habits), apps.contains(.miga), apps.contains(.earned))
        let shown = HabitShown(days)
        let left = s.anyLeft
        let header =
            ["day", "date"] + (left ? ["active"] : [])
            + (pressure ? ["tier0", "tier1", "tier2", "tier3", "remind", "YES", "NO", "MISSED", "shield", "streak p50", "p90"] : [])
            + (habits ? ["habits"] : []) + (miga ? ["exits"] : []) + (habits ? Self.habitHeader(shown) : [])
            + (earned ? Self.earnedHeader : [])
        var rows: [[String]] = []
        for (i, d) in days.enumerated() {
            var row = [String(i + 1), start?.adding(days: i)?.rawValue ?? ""]
            if left { row.append(Self.percent(Metric.activeShare.value(d))) }
            if pressure {
                row += Metric.userDaysAtTier.map { Self.percent($0.value(d)) }
                row += [
                    String(d.reminders), String(d.yes), String(d.no), String(d.missed), String(d.shields),
                    String(d.streakPercentile(50)), String(d.streakPercentile(90)),
                ]
            }
            if habits { row.append(Self.percent(Metric.habitCompletionRate.value(d))) }
            if miga { row.append(String(d.exits)) }
            if habits { row += Self.habitCells(d, shown) }
            if earned { row += Self.earnedCells(d) }
            rows.append(row)
        }
        out += Self.align([header] + rows, leftColumns: [1])
        out += "\nsummary\n"
        out += "  user-days                   \(s.userDays) (\(s.events) events applied, \(s.refused) refused)\n"
        if left {
            let retained = [7, 30].filter { $0 <= s.days }.map { "on day \($0): \(Self.percent(s.retained(onDay: $0)))" }
            out +=
                "  active users                \(s.activeByDay.last ?? 0) of \(s.users) at the end"
                + (retained.isEmpty ? "" : " (retained \(retained.joined(separator: ", ")))") + "\n"
        }
        if !apps.isSuperset(of: Metric.App.used) || s.pressureUserDays != s.userDays {
            out += "  apps                        " + Self.appUsers(s, apps) + "\n"
        }
        if pressure {
            out +=
                "  check-ins                   YES \(s.yes) (\(Self.percent(Metric.yesRate.value(s)))), NO \(s.no), MISSED \(s.missed); commitments \(s.commitments)\n"
            out +=
                "  user-days at tier 0/1/2/3   " + s.userDaysAtTier.map(String.init).joined(separator: " / ")
                + "  (tier 3: \(Self.percent(Metric.userDaysAtTier[3].value(s))))\n"
            out +=
                "  reminders                   \(s.reminders), \(String(format: "%.2f", s.remindersPerUserDay)) per user-day, at most \(s.maxRemindersPerUserDay) for one user-day\n"
            out += "  restart shields used        \(s.shields)\n"
        }
        if habits {
            out += "  habit completion rate       \(Self.percent(Metric.habitCompletionRate.value(s))) (\(s.habitDone) of \(s.habitPlanned))\n"
            let last = s.finalStreaks
            out +=
                "  habit streak                p50 \(last.habitStreakPercentile(50)), p90 \(last.habitStreakPercentile(90)), "
                + "max \(max(0, last.habitStreaks.count - 1)) at the end (the tasks' current streaks, as the rules count them)\n"
            out += Self.habitLines(s, shown)
        }
        if miga { out += "  MIGA gateway                \(s.exits) exits to focus, \(s.deepens) deeper pauses, \(s.proceeds) proceeded\n" }
        if pressure {
            out +=
                "  final streak                p50 \(s.finalStreaks.streakPercentile(50)), p90 \(s.finalStreaks.streakPercentile(90)), max \(max(0, s.finalStreaks.streaks.count - 1)); "
                + s.streakBuckets.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "\n"
        }
        if earned { out += Self.earnedLines(s) }
        out += teamLines(s, apps: apps)
        if let breakdown { out += breakdown.table() }
        if let armBreakdown { out += armBreakdown.table() }
        return out
    }

    /// The team's metrics (`metrics.lua`) of the apps the cohort uses, each with its aggregate.
    private func teamLines(_ s: ReportSummary, apps: Set<Metric.App>) -> String {
        let shown = teamMetrics.filter { apps.contains($0.app) }
        guard !shown.isEmpty else { return "" }
        let rows = shown.map { m in
            let t = s.habitTotals.team(m.id) ?? TeamMetricTotals(id: m.id)
            let over: String
            switch m.aggregate {
            case .mean: over = "mean of \(t.userDays) user-days"
            case .perUser: over = "sum per user, \(t.users) users"
            case .shareOfUsers: over = "\(t.usersNonzero) of \(t.users) users"
            case .percentile(let p): over = "p\(p) of \(t.userDays) user-days"
            }
            return ["    " + m.label, ReplicaReport.format(m.metric.value(s), share: m.unit == .share), "(\(over))"]
        }
        let table = Self.align(rows, leftColumns: [0, 2]).split(separator: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) + "\n" }.joined()
        return "  the team's metrics (\(RuleSet.metricsFileName))\n" + table
    }

    /// The user-days of each app the cohort uses (Pressure's per user-day figures divide by its
    /// own), in the order reports list the apps.
    static func appUsers(_ s: ReportSummary, _ apps: Set<Metric.App>) -> String {
        let used = appUserDays(s).filter { apps.contains($0.app) }.map { "\($0.app.name) \($0.userDays)" }
        return (used.isEmpty ? "none" : used.joined(separator: ", ")) + " user-days"
    }

    /// Each app's user-days, in the order reports list the apps.
    static func appUserDays(_ s: ReportSummary) -> [(app: Metric.App, userDays: Int)] {
        [(.pressure, s.pressureUserDays), (.habits, s.habitUserDays), (.miga, s.migaUserDays), (.earned, s.earnedUserDays)]
    }

    /// The per-day series as CSV (a header line, then one line per day).
    package func csv() -> String {
        var out =
            "day,date,users,tier0_share,tier1_share,tier2_share,tier3_share,reminders,max_reminders,commitments,yes,no,missed,shields,"
            + "streak_p50,streak_p90,streak_max,habit_done,habit_planned,habit_completion_rate,exits_to_focus,deepen_pause,proceed_to_app,"
            + "events,refused_events," + (Self.earnedCSVHeader + Self.habitCSVHeader + teamMetrics.map { "team." + $0.id })
            .joined(separator: ",") + "\n"
        let start = try? DayID(run.start)
        for (i, d) in days.enumerated() {
            let fields: [String] =
                [String(i + 1), start?.adding(days: i)?.rawValue ?? "", String(d.users)]
                + Metric.userDaysAtTier.map { Self.fixed($0.value(d)) }
                + [
                    d.reminders, d.maxReminders, d.commitments, d.yes, d.no, d.missed, d.shields,
                    d.streakPercentile(50), d.streakPercentile(90), max(0, d.streaks.count - 1), d.habitDone, d.habitPlanned,
                ].map(String.init)
                + [Self.fixed(Metric.habitCompletionRate.value(d))]
                + [d.exits, d.deepens, d.proceeds, d.events, d.refused].map(String.init) + Self.earnedCSVFields(d.earned)
                + Self.habitCSVFields(d) + teamMetrics.map { Self.fixed($0.metric.value(d)) }
            out += fields.joined(separator: ",") + "\n"
        }
        return out
    }

    /// The report in `format`.
    package func rendered(_ format: ReportFormat) -> String {
        switch format {
        case .table: VisibleText.escaping(table())  // for a terminal: a report's names may hold control characters
        case .json: json()
        case .csv: csv()
        case .jsonl: jsonl()
        }
    }

    static func percent(_ x: Double) -> String { String(format: "%.1f%%", x * 100) }
    static func fixed(_ x: Double) -> String { String(format: "%.4f", x) }

    /// Columns padded to their widest cell; right-aligned but for `leftColumns`.
    package static func align(_ rows: [[String]], leftColumns: Set<Int>) -> String {
        let widths = (0..<(rows.first?.count ?? 0)).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return leftColumns.contains(c) ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
