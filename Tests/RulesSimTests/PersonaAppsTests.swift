import Foundation
import LuaHost
import RulesModel
import Testing

@testable import RulesSim

/// A persona says which apps its users use; a user outside an app produces none of its events,
/// and reports show only the apps the cohort uses.
@Suite struct PersonaAppsTests {
    private func load(_ text: String) throws -> Result<Persona, InputFileError> { try SimTestSupport.loadPersona(text) }

    private func problems(_ text: String) throws -> [String] {
        guard case .failure(let error) = try load(text) else { return [] }
        return error.problems.map { "\($0.line ?? 0): \($0.message)" }
    }

    @Test func aFileWithoutAppsUsesTheAppsOfItsSections() throws {
        let persona = try load(
            """
            return {
              description = "Habits only",
              habits = { { task = "read", rate = 0.5 } },
            }
            """
        ).get()
        #expect(persona.spec.apps == [.habits])
        let steady = try PersonaLoader.load(path: SimTestSupport.personas + "/steady.lua", host: LuaHost())
        #expect(steady.spec.apps == Set(Metric.App.used))
    }

    @Test func appsAndSectionsMustAgree() throws {
        #expect(
            try problems(
                """
                return {
                  description = "x",
                  apps = { "habits", "earnd" },
                  habits = { { task = "read", rate = 0.5 } },
                }
                """) == [
                    "3: apps[2]: expected one of \"pressure\", \"habits\", \"miga\", \"earned\", found \"earnd\"; did you mean 'earned'?"
                ])
        #expect(
            try problems(
                """
                return {
                  description = "x",
                  apps = { "habits" },
                  habits = { { task = "read", rate = 0.5 } },
                  commit = 0.5,
                  miga = { opens_per_day = 1 },
                }
                """) == [
                    "5: commit: a Pressure field, but apps (\"habits\") does not list \"pressure\"",
                    "6: miga: apps (\"habits\") does not list \"miga\"",
                ])
        let missing = try problems(
            """
            return {
              description = "x",
              apps = { "pressure", "habits", "earned" },
              answer = { yes = 0.5, no = 0.1 },
            }
            """)
        #expect(missing.contains { $0.hasSuffix("commit: missing: a Pressure user needs commit and answer") }, "\(missing)")
        #expect(missing.contains { $0.hasSuffix("habits: expected at least one task for a habit tracker user") }, "\(missing)")
        #expect(missing.contains { $0.hasSuffix("earned: missing: an Earned user needs earned = { … }") }, "\(missing)")
        #expect(try problems("return { description = \"x\", apps = {} }") == ["1: apps: expected at least one of \"pressure\", \"habits\", \"miga\", \"earned\""])
        #expect(try problems("return { description = \"x\" }").first?.contains("apps: expected the apps its users use") == true)
    }

    /// The focus app's cohort: no Pressure anywhere — no commitments, check-ins, tiers or reminders
    /// in the engine's decisions, and no Pressure figure in the reports.
    @Test func aCohortWithoutPressureShowsNoPressure() throws {
        let report = try Simulation(config: try SimTestSupport.config(days: 4, users: 6, mix: "focus-user")).run()
        let s = ReportSummary(report)
        #expect(s.pressureUserDays == 0 && s.yes + s.no + s.missed + s.commitments + s.reminders == 0)
        #expect(s.habitUserDays == 24 && s.earnedUserDays == 24 && s.migaUserDays == 0)
        #expect(Metric.apps(of: s) == [.habits, .earned, .cohort])
        let table = report.table()
        for pressure in ["tier0", "YES", "check-ins", "reminders", "final streak", "MIGA", "exits"] {
            #expect(!table.contains(pressure), "\(pressure) in\n\(table)")
        }
        #expect(table.contains("  apps                        habit tracker 24, Earned 24 user-days\n"), "\(table)")
        let summary = try #require(
            (try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary["check_ins"] == nil && summary["final_streak"] == nil && summary["exits_to_focus"] == nil)
        #expect(summary["apps"] as? [String: Int] == ["habits": 24, "earned": 24])
        let html = report.html()
        #expect(!html.contains("<h2>Pressure</h2>") && !html.contains("YES rate"))
    }

    /// A mixed cohort: Pressure's shares and rates are of its own users' days.
    @Test func pressureFiguresArePerPressureUserDay() throws {
        let report = try Simulation(config: try SimTestSupport.config(days: 3, users: 8, mix: "steady:1,focus-user:1")).run()
        let s = ReportSummary(report)
        #expect(s.pressureUserDays > 0 && s.pressureUserDays < s.userDays)
        #expect(s.userDaysAtTier.reduce(0, +) == s.pressureUserDays)
        let tiers = Metric.userDaysAtTier.map { $0.value(s) }.reduce(0, +)
        #expect(abs(tiers - 1) < 1e-9)
        #expect(Metric.remindersPerUserDay.value(s) == Double(s.reminders) / Double(s.pressureUserDays))
        for day in report.days {
            #expect(day.users == 8 && day.pressureUsers < 8 && day.yes + day.no + day.missed <= day.pressureUsers)
        }
        #expect(report.table().contains("  apps                        Pressure \(s.pressureUserDays), "))
    }

    /// A report of the JSON written before personas declared their apps reads as every user in
    /// every app; one written now reads back the same.
    @Test func aDayReadsItsUsersPerApp() throws {
        let old = #"{"tiers":[3,1,0,0],"reminders":0,"max_reminders":0,"commitments":0,"yes":0,"no":0,"missed":0,"shields":0,"habit_done":0,"habit_planned":0,"exits_to_focus":0,"deepen_pause":0,"proceed_to_app":0,"refused_events":0,"events":4,"streak_histogram":[4]}"#
        let day = try JSONDecoder().decode(DayTotals.self, from: Data(old.utf8))
        #expect(day.users == 4 && day.habitUsers == 4 && day.migaUsers == 4 && day.pressureUsers == 4)
        let report = try Simulation(config: try SimTestSupport.config(days: 2, users: 4, mix: "steady:1,focus-user:1")).run()
        let again = try SimulationReport(json: Data(report.json().utf8))
        #expect(again.days == report.days)
    }

    @Test func aSweepOfACohortWithoutPressureReportsItsOwnApps() throws {
        let config = try SimTestSupport.config(days: 2, users: 4, mix: "focus-user")
        let knob = try SweepKnob("pricing.credit_costs[1].credits=5,10")
        let sweep = try Sweep(
            config: config, knobs: [knob], mode: .oneAtATime, metrics: MetricRegistry.sweepDefaults)
        let apps: Set<Metric.App> = [.habits, .earned, .cohort]
        #expect(sweep.metrics.allSatisfy { apps.contains($0.app) } && !sweep.metrics.isEmpty)
        #expect(throws: SweepError.self) {
            try Sweep(config: config, knobs: [knob], mode: .oneAtATime, metrics: [.yesRate])
        }
    }
}
