import Foundation
import Testing

/// `rulesrun bundle --experiment` as a user runs it (docs/bundles.md#experiments): arms from rule
/// folders, shares in basis points or percent, a rollout that grows keeping each arm's users, a
/// kill switch; and a bundle's arm wherever a command takes rules (`simulate --rules FILE#ARM`).
@Suite struct BundleExperimentCommandTests {
    /// A folder with the default rules (no tests) in `control/` and, in `lenient/`, the same with
    /// escalation from the second miss, and the suite's key pair.
    static func folder() throws -> URL {
        let dir = try BundleCommandTests.copyOfTheRules(in: "control")
        let lenient = dir.appendingPathComponent("lenient")
        try FileManager.default.copyItem(at: dir.appendingPathComponent("control"), to: lenient)
        let escalation = lenient.appendingPathComponent("escalation.lua")
        let text = try String(contentsOf: escalation, encoding: .utf8)
        try text.replacingOccurrences(of: "M.tier_for_misses = { 1, 2, 3 }", with: "M.tier_for_misses = { 2, 3, 4 }")
            .write(to: escalation, atomically: true, encoding: .utf8)
        try BundleCommandTests.copy("k.key", to: dir)
        try BundleCommandTests.copy("k.pub", to: dir)
        return dir
    }

    static let build = [
        "bundle", "control", "--key", "k.key", "--out", "x.bundle", "--experiment", "escalation-2026", "--arm", "lenient=lenient",
    ]

    @Test func aRolloutGrowsKeepingEachArmsBucketsAndAKillSwitchPutsEveryoneOnOneArm() throws {
        let dir = try Self.folder()
        let first = try CLI.run(Self.build + ["--allocation", "control=90%,lenient=10%"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("wrote x.bundle: revision 1, 10 files, "), "\(first.stdout)")
        #expect(
            first.stdout.hasSuffix(
                "experiment   escalation-2026 (salt escalation-2026): control 9000 bp (90.00 %, buckets 0-8999), lenient 1000 bp (10.00 %, buckets 9000-9999)\n"
            ), "\(first.stdout)")
        // Grown to 25 % (built from --out's experiment): lenient keeps 9000-9999 and takes the lowest
        // buckets the control gives up, 7500-8999.
        let grown = try CLI.run(Self.build + ["--allocation", "control=7500,lenient=2500"], in: dir)
        #expect(grown.status == 0, "\(grown.stderr)")
        #expect(
            grown.stdout.hasSuffix("control 7500 bp (75.00 %, buckets 0-7499), lenient 2500 bp (25.00 %, buckets 7500-9999)\n"),
            "\(grown.stdout)")
        let killed = try CLI.run(Self.build + ["--kill-switch", "control"], in: dir)
        #expect(killed.stdout.hasPrefix("wrote x.bundle: revision 3, "), "\(killed.stdout)\(killed.stderr)")
        #expect(killed.stdout.hasSuffix("control 10000 bp (100.00 %, buckets 0-9999), lenient 0 bp (0.00 %)\n"), "\(killed.stdout)")
        let verified = try CLI.run(["bundle", "verify", "x.bundle", "--public-key", "k.pub"], in: dir)
        #expect(verified.status == 0 && verified.stdout.hasPrefix("x.bundle: valid bundle, revision 3, "), "\(verified.stdout)\(verified.stderr)")
        let inspected = try CLI.run(["bundle", "inspect", "x.bundle"], in: dir)
        #expect(inspected.stdout.contains("\n  experiment   escalation-2026 (salt escalation-2026): control 10000 bp"), "\(inspected.stdout)")
        #expect(inspected.stdout.contains("\n  arms/lenient/escalation.lua  "), "\(inspected.stdout)")
    }

    @Test func badExperimentOptionsAreRefusedAndWriteNothing() throws {
        let dir = try Self.folder()
        func refusal(_ extra: [String], base: [String] = Self.build) throws -> String {
            let result = try CLI.run(base + extra, in: dir)
            #expect(result.status == 2, "\(extra)")
            return result.stderr
        }
        #expect(
            try refusal(["--allocation", "control=90%,lenient=20%"])
                == "--experiment: the arms' shares add up to 11000 basis points; expected 10000 (100 %)\n")
        #expect(
            try refusal(["--allocation", "control=90%"]) == "--allocation: give every arm's share (missing: lenient)\n")
        #expect(try refusal(["--allocation", "control=12.345%,lenient=10%"]).hasPrefix("--allocation: \"control=12.345%\": expected ARM=SHARE"))
        #expect(try refusal(["--kill-switch", "other"]).hasPrefix("--kill-switch other: expected one of the arms (control, lenient)"))
        #expect(try refusal(["--arm", "lenient"]).hasPrefix("--arm lenient: expected NAME=DIRECTORY"))
        #expect(
            try refusal(["--arm", "x=lenient"], base: ["bundle", "control", "--key", "k.key", "--out", "x.bundle"])
                == "--arm, --allocation, --kill-switch and --salt belong to an experiment: give --experiment NAME\n")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.bundle").path))
    }

    /// What ships is what is simulated: each arm of the bundle simulates as its folder does, byte
    /// for byte, and compare takes two arms.
    @Test func simulateAndCompareTakeABundlesArm() throws {
        let dir = try Self.folder()
        #expect(try CLI.run(Self.build, in: dir).status == 0)
        let simulate = ["simulate", "3d", "--users", "20", "--no-db", "--format", "json"]
        for (arm, folder) in [("#lenient", "lenient"), ("#control", "control")] {
            let fromBundle = try CLI.run(simulate + ["--rules", "x.bundle\(arm)"], in: dir)
            let fromFolder = try CLI.run(simulate + ["--rules", folder], in: dir)
            #expect(fromBundle.status == 0, "\(fromBundle.stderr)")
            // The same run; the report names the rules as the user did.
            let named = fromFolder.stdout.replacingOccurrences(of: "\"rules\":\"\(folder)\"", with: "\"rules\":\"x.bundle\(arm)\"")
            #expect(fromBundle.stdout == named, "\(arm)")
        }
        // A bundle without an experiment: its one rule set.
        #expect(try CLI.run(["bundle", "control", "--key", "k.key", "--out", "plain.bundle"], in: dir).status == 0)
        let plain = try CLI.run(simulate + ["--rules", "plain.bundle"], in: dir)
        let control = try CLI.run(simulate + ["--rules", "control"], in: dir)
        #expect(plain.stdout == control.stdout.replacingOccurrences(of: "\"rules\":\"control\"", with: "\"rules\":\"plain.bundle\""))
        // One rule set where a command runs one (simulate runs the rollout: SimulateRolloutTests).
        let unnamed = try CLI.run(["replay", "-", "--rules", "x.bundle"], in: dir)
        #expect(unnamed.status != 0)
        #expect(
            unnamed.stderr.contains(
                "x.bundle: runs experiment escalation-2026 with arms control, lenient: name the arm's rules, x.bundle#control or x.bundle#lenient"),
            "\(unnamed.stderr)")
        let unknown = try CLI.run(simulate + ["--rules", "x.bundle#strict"], in: dir)
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("x.bundle: arm strict: experiment escalation-2026 has arms control, lenient"), "\(unknown.stderr)")
        let compared = try CLI.run(
            [
                "compare", "x.bundle#control", "x.bundle#lenient", "--days", "14", "--runs", "30", "--population-users", "0",
                "--economy-runs", "0", "--habit-runs", "0",
            ], in: dir)
        #expect(compared.status == 1, "\(compared.stdout)\(compared.stderr)")
    }
}
