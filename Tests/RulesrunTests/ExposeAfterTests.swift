import Foundation
import Testing

/// `simulate --rules FILE.bundle --expose-after Nd` (docs/simulate.md#a-whole-rollout): each user
/// runs its first N days under the control's rules, then its arm's on the same rows, exposed at
/// the start of that day. `analyze` replays the log as the apps ran it (the pre-period under the
/// control's rules, then the arm's) and gets the arms' figures `simulate` reported, with CUPED on
/// each user's pre-period.
@Suite struct ExposeAfterTests {
    /// Each user's lines of a `--events` file, in order.
    static func lines(_ dir: URL, _ file: String) throws -> [String: [String]] {
        var users: [String: [String]] = [:]
        for line in try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).split(separator: "\n") {
            let user = try #require(try AnalyzeCommandTests.object(String(line))["user"] as? String)
            users[user, default: []].append(String(line))
        }
        return users
    }

    /// The suite's bundle (control and lenient, 50/50) in a folder of its own.
    static func rollout() throws -> URL {
        let dir = try BundleExperimentCommandTests.folder()
        let built = try CLI.run(BundleExperimentCommandTests.build + ["--allocation", "control=50%,lenient=50%"], in: dir)
        #expect(built.status == 0, "\(built.stderr)")
        return dir
    }

    @Test func theArmsFiguresAfterAPreperiodAreThoseOfItsLogAndCupedNarrowsThem() throws {
        let dir = try Self.rollout()
        let simulate = [
            "simulate", "8d", "--users", "80", "--no-db", "--rules", "x.bundle", "--expose-after", "3d", "--format", "json",
        ]
        let simulated = try CLI.run(simulate + ["--out", "sim.json", "--events", "log.jsonl", "--jobs", "1"], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        // The same bytes whatever the number of jobs.
        let threeJobs = try CLI.run(simulate + ["--out", "sim3.json", "--events", "log3.jsonl", "--jobs", "3"], in: dir)
        #expect(threeJobs.status == 0, "\(threeJobs.stderr)")
        for (one, three) in [("sim.json", "sim3.json"), ("log.jsonl", "log3.jsonl")] {
            let (a, b) = (dir.appendingPathComponent(one), dir.appendingPathComponent(three))
            #expect(try Data(contentsOf: a) == Data(contentsOf: b), "\(one)")
        }
        let table = try CLI.run(["simulate", "8d", "--users", "80", "--no-db", "--rules", "x.bundle", "--expose-after", "3d"], in: dir)
        let title = "by arm of experiment escalation-2026 (revision 1), from each user's exposure after its 3-day pre-period"
        #expect(table.stdout.contains(title), "\(table.stdout)")
        // Each user's first three days are those of the control's rules alone; its exposure comes
        // at the start of its fourth day, after the tick that ended the third.
        let alone = try CLI.run(
            ["simulate", "8d", "--users", "80", "--no-db", "--rules", "control", "--events", "c.jsonl"], in: dir)
        #expect(alone.status == 0, "\(alone.stderr)")
        let rollout = try Self.lines(dir, "log.jsonl"), control = try Self.lines(dir, "c.jsonl")
        var exposed: [String: String] = [:]
        for (user, lines) in rollout {
            guard let e = lines.firstIndex(where: { $0.contains("\"type\":\"exposure\"") }) else {
                // A user that left in its pre-period: never exposed, its events the control's.
                #expect(lines == control[user], "\(user)")
                continue
            }
            let exposure = try AnalyzeCommandTests.object(lines[e]), tick = try AnalyzeCommandTests.object(lines[e - 1])
            exposed[user] = exposure["arm"] as? String
            let at = exposure["at"] as? String
            #expect(tick["type"] as? String == "tick" && tick["at"] as? String == at, "\(user): \(lines[e - 1])")
            #expect(e > 3 && Array(lines[..<e]) == control[user]?.prefix(e).map { $0 }, "\(user)")
            if exposed[user] == "control" { #expect(lines.count == (control[user]?.count ?? 0) + 1, "\(user)") }
        }
        #expect(Set(exposed.values) == ["control", "lenient"])
        // The arm's rules after the pre-period: some lenient user's days differ from the control's.
        let changed = exposed.filter { user, arm in
            arm == "lenient" && rollout[user]!.filter { !$0.contains("\"type\":\"exposure\"") } != control[user]!
        }
        #expect(!changed.isEmpty)

        let analyzed = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(analyzed.status == 0, "\(analyzed.stderr)")
        let report = try AnalyzeCommandTests.object(analyzed.stdout)
        let sim = try AnalyzeCommandTests.object(String(contentsOf: dir.appendingPathComponent("sim.json"), encoding: .utf8))
        #expect((sim["arms"] as? [String: Any])?["preperiod_days"] as? Int == 3)
        let compared = try AnalyzeCommandTests.expectTheArmsFigures(of: report, as: sim)
        #expect(compared >= 30, "\(compared) figures compared")
        #expect((report["users"] as? [String: Int])?.values.reduce(0, +) == exposed.count)
        // The users that left before their exposure are counted as unexposed, never in an arm.
        let unexposed = (report["problems"] as? [String: [String: Any]])?["no_exposure"]?["count"] as? Int ?? 0
        #expect(unexposed == 80 - exposed.count)
        // CUPED on each user's three days before its exposure narrows the main metrics.
        let metrics = try #require(report["metrics"] as? [[String: Any]])
        var reductions: [String: Double] = [:]
        for m in metrics {
            let comparison = (m["comparisons"] as? [[String: Any]])?.first
            reductions[m["id"] as! String] = comparison?["cuped_variance_reduction"] as? Double
        }
        print("CUPED after a 3-day pre-period, \(compared) figures as simulated: \(reductions.sorted { $0.key < $1.key })")
        // (Reminders per user-day hardly depend on what a user did before: 0.1 % here; see the calibration.)
        for id in ["yes_rate", "user_days_at_tier_0", "user_days_at_tier_3", "habit_completion_rate", "credits_earned_per_user_day"] {
            #expect((reductions[id] ?? 0) > 0, "\(id): \(reductions)")
        }
        let oneJob = try CLI.run(["analyze", "log.jsonl", "--rules", "x.bundle", "--format", "json", "--jobs", "1"], in: dir)
        #expect(oneJob.stdout == analyzed.stdout)
    }

    /// The database of such a rollout gives the figures of its log.
    @Test func aPreperiodRolloutsDatabaseGivesTheFiguresOfItsLog() throws {
        let dir = try Self.rollout()
        let steady = CLI.packageRoot.appendingPathComponent("examples/personas/steady.lua").path
        let simulated = try CLI.run(
            [
                "simulate", "6d", "--users", "30", "--rules", "x.bundle", "--expose-after", "2d", "--persona", steady,
                "--db", "x.sqlite", "--events", "e.jsonl",
            ], in: dir)
        #expect(simulated.status == 0, "\(simulated.stderr)")
        let fromDatabase = try CLI.run(["analyze", "x.sqlite", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(fromDatabase.status == 0, "\(fromDatabase.stderr)")
        let fromLog = try CLI.run(["analyze", "e.jsonl", "--rules", "x.bundle", "--format", "json"], in: dir)
        #expect(fromLog.status == 0, "\(fromLog.stderr)")
        // Every figure is the log's; the users that left in their pre-period are counted alike
        // (a database has no line to show them at).
        func figures(_ report: String) throws -> NSDictionary {
            let figures = try DatabaseLogTests.figures(report).mutableCopy() as! NSMutableDictionary
            let unexposed = (figures["problems"] as? [String: [String: Any]])?["no_exposure"]?["count"] as? Int
            figures["problems"] = unexposed.map { ["no_exposure": $0] }
            return figures
        }
        #expect(try figures(fromDatabase.stdout) == figures(fromLog.stdout))
        let report = try AnalyzeCommandTests.object(fromDatabase.stdout)
        #expect(((report["users"] as? [String: Int])?.values.reduce(0, +) ?? 0) > 20, "\(report["users"] ?? "")")
        #expect(try figures(fromDatabase.stdout)["metrics"] != nil)
    }

    @Test func exposeAfterNeedsARolloutAndADayUnderTheArm() throws {
        let dir = try Self.rollout()
        let run = ["simulate", "4d", "--users", "4", "--no-db"]
        let alone = try CLI.run(run + ["--rules", "control", "--expose-after", "2d"], in: dir)
        #expect(alone.status == 2 && alone.stderr.contains("--expose-after exposes the users of a rollout"), "\(alone.stderr)")
        let long = try CLI.run(run + ["--rules", "x.bundle", "--expose-after", "4d"], in: dir)
        #expect(long.status == 2 && long.stderr.contains("--expose-after 4d is 4 days, the run 4: expected"), "\(long.stderr)")
        let malformed = try CLI.run(run + ["--rules", "x.bundle", "--expose-after", "two"], in: dir)
        #expect(malformed.status == 2 && malformed.stderr.contains("--expose-after: invalid duration"), "\(malformed.stderr)")
    }
}
