import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import Testing

/// `rulesrun watch` keeps seeing the rule set when the path it watches comes to name another folder
/// (deleted and made again, renamed, replaced, a symbolic link swapped as a release does) and when
/// a rule file is a link to a file elsewhere: a real process, real folders and links, with inotify
/// and with `--poll`. Each change must start a cycle whose replay shows the rules now on disk (the
/// knob of `WatchCommandTests` makes line 5's YES keep tier 1), and the watch must then follow the
/// new folder, not the old one.
@Suite(.timeLimit(.minutes(5))) struct WatchFolderChangeTests {
    static let modes: [[String]] = [[], ["--poll"]]
    static let knobbed = "  line 5: state.current_tier: 0 → 1"
    static let unknobbed = "  line 5: state.current_tier: 1 → 0"

    /// A copy of the default rule files in `dir/name`, with the knob edited when asked.
    static func rules(_ name: String, in dir: URL, knob: Bool = false) throws -> URL {
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] {
            var text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("rules/" + file), encoding: .utf8)
            if knob, file == "escalation.lua" { text = CLI.edit(text, [WatchCommandTests.knob]) }
            try WatchCommandTests.save(text, to: folder.appendingPathComponent(file))
        }
        return folder
    }

    /// `link` made to point at `target` the way a release does: a new link renamed over it.
    static func swap(_ link: URL, to target: String) throws {
        let temporary = link.deletingLastPathComponent().appendingPathComponent(link.lastPathComponent + ".tmp")
        try FileManager.default.createSymbolicLink(atPath: temporary.path, withDestinationPath: target)
        #expect(rename(temporary.path, link.path) == 0)
    }

    /// The escalation file of `folder` saved with the knob edited or put back.
    static func setKnob(_ on: Bool, in folder: URL) throws {
        let file = folder.appendingPathComponent("escalation.lua")
        let text = try String(contentsOf: file, encoding: .utf8)
        let knob = WatchCommandTests.knob
        try WatchCommandTests.save(CLI.edit(text, [on ? knob : (knob.new, knob.old)]), to: file)
    }

    /// `name` of `folder` saved as it is (a save that changes nothing but is an event).
    static func resave(_ name: String, in folder: URL) throws {
        let file = folder.appendingPathComponent(name)
        try WatchCommandTests.save(try String(contentsOf: file, encoding: .utf8), to: file)
    }

    /// A watch of `folder` (by its absolute path, as a script gives it) run in `dir`, replaying
    /// `events.jsonl`, after its first, good cycle.
    static func watch(_ folder: URL, in dir: URL, _ mode: [String], tests: Bool = false) throws -> WatchProcess {
        let watch = try WatchProcess(["watch", folder.path, "--replay", "events.jsonl"] + (tests ? [] : ["--no-tests"]) + mode, in: dir)
        let first = try watch.waitForLine(containing: "\ncycle 1: ")
        #expect(first.contains("cycle 1: good, "), "\(first)")
        try watch.waitForLine(containing: "watching \(folder.path)")
        return watch
    }

    /// The path with its symbolic links resolved, as the watch names the folder a link now points to.
    static func real(_ url: URL) -> String {
        guard let resolved = realpath(url.path, nil) else { return url.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    @Test(arguments: modes) func theFolderDeletedReplacedByAFileAndMadeAgainIsSaidAndWatchedAgain(mode: [String]) throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let watch = try Self.watch(rules, in: dir, mode)

        try FileManager.default.removeItem(at: rules)
        let gone = try watch.waitForLine(containing: "watch: \(rules.path) is gone; waiting for a folder there (a cycle runs then)")
        #expect(!gone.contains("cycle 2"))
        try WatchCommandTests.save("not rules\n", to: rules)
        let file = try watch.waitForLine(containing: "watch: \(rules.path) is a regular file now, not a folder; waiting for a folder there")
        #expect(!file.contains("cycle 2"))

        try FileManager.default.removeItem(at: rules)
        _ = try Self.rules("rules", in: dir, knob: true)
        let back = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(back.contains("cycle 2: \(rules.path) is a new folder"), "\(back)")
        #expect(back.contains(Self.knobbed), "\(back)")
        #expect(back.contains("cycle 2: good, "))
        try watch.waitForLine(containing: "watching")

        // The new folder is the one watched now.
        try Self.setKnob(false, in: rules)
        let edited = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(edited.contains("cycle 3: \(rules.path)/escalation.lua changed\n"), "\(edited)")
        #expect(edited.contains(Self.unknobbed))
        #expect(try watch.stop() == 0)
    }

    @Test(arguments: modes) func aFolderRenamedAwayAndAnotherRenamedInStartsACycleAndTheOldOneIsLeft(mode: [String]) throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules"), old = dir.appendingPathComponent("rules.old")
        let new = try Self.rules("rules.new", in: dir, knob: true)
        let watch = try Self.watch(rules, in: dir, mode)

        #expect(rename(rules.path, old.path) == 0)
        #expect(rename(new.path, rules.path) == 0)
        let swapped = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(swapped.contains("\(rules.path) is a new folder"), "\(swapped)")
        #expect(swapped.contains(Self.knobbed), "\(swapped)")
        try watch.waitForLine(containing: "watching")

        // A save in the folder renamed away starts nothing; the next cycle is the new folder's save alone.
        try Self.resave("streaks.lua", in: old)
        try Self.setKnob(false, in: rules)
        let edited = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(edited.contains("cycle 3: \(rules.path)/escalation.lua changed\n"), "\(edited)")
        #expect(edited.contains(Self.unknobbed))
        #expect(try watch.stop() == 0)
    }

    @Test(arguments: modes) func aReleaseSwapOfTheFolderLinkStartsACycleAndTheWatchFollowsTheNewFolder(mode: [String]) throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(rename(dir.appendingPathComponent("rules").path, dir.appendingPathComponent("v1").path) == 0)
        let v1 = dir.appendingPathComponent("v1"), v2 = try Self.rules("v2", in: dir, knob: true)
        let current = dir.appendingPathComponent("current")
        try FileManager.default.createSymbolicLink(atPath: current.path, withDestinationPath: "v1")
        let watch = try Self.watch(current, in: dir, mode)

        try Self.swap(current, to: "v2")
        let swapped = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(swapped.contains("cycle 2: \(current.path) is now the folder \(Self.real(v2))"), "\(swapped)")
        #expect(swapped.contains(Self.knobbed), "\(swapped)")
        #expect(swapped.contains("cycle 2: good, "))
        try watch.waitForLine(containing: "watching")

        // The old release's files are no longer the rule set's; the new one's are.
        try Self.resave("streaks.lua", in: v1)
        try Self.setKnob(false, in: v2)
        let edited = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(edited.contains("cycle 3: \(current.path)/escalation.lua changed\n"), "\(edited)")
        #expect(edited.contains(Self.unknobbed))
        #expect(try watch.stop() == 0)
    }

    @Test(arguments: modes) func aRuleFileThatIsALinkIsSeenThroughItsTargetAndEveryLinkOnTheWay(mode: [String]) throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        // rules/escalation.lua → ../shared/current/escalation.lua, shared/current → s1.
        let s1 = try Self.rules("shared/s1", in: dir), s2 = try Self.rules("shared/s2", in: dir, knob: true)
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("shared/current").path, withDestinationPath: "s1")
        try FileManager.default.removeItem(at: rules.appendingPathComponent("escalation.lua"))
        try FileManager.default.createSymbolicLink(
            atPath: rules.appendingPathComponent("escalation.lua").path, withDestinationPath: "../shared/current/escalation.lua")
        let watch = try Self.watch(rules, in: dir, mode)

        // The file the link names, written in place.
        try Self.setKnob(true, in: s1)
        let inPlace = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(inPlace.contains("cycle 2: \(rules.path)/escalation.lua changed\n"), "\(inPlace)")
        #expect(inPlace.contains(Self.knobbed), "\(inPlace)")
        try watch.waitForLine(containing: "watching")

        // A link on the way pointed elsewhere (s2 has the knob too: put it back there first).
        try Self.setKnob(false, in: s2)
        try Self.swap(dir.appendingPathComponent("shared/current"), to: "s2")
        let relinked = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(relinked.contains("cycle 3: \(rules.path)/escalation.lua changed\n"), "\(relinked)")
        #expect(relinked.contains(Self.unknobbed), "\(relinked)")
        try watch.waitForLine(containing: "watching")

        // The new target saved through a rename (as `sed -i` does), in its own folder.
        let temporary = s2.appendingPathComponent("sedX1b2Q9")
        let text = try String(contentsOf: s2.appendingPathComponent("escalation.lua"), encoding: .utf8)
        try WatchCommandTests.save(CLI.edit(text, [WatchCommandTests.knob]), to: temporary)
        #expect(rename(temporary.path, s2.appendingPathComponent("escalation.lua").path) == 0)
        let renamed = try watch.waitForLine(containing: "\ncycle 4: ")
        #expect(renamed.contains("cycle 4: \(rules.path)/escalation.lua changed\n"), "\(renamed)")
        #expect(renamed.contains(Self.knobbed), "\(renamed)")
        #expect(try watch.stop() == 0)
    }

    @Test(arguments: modes) func aSwapOfTheBaseOfAChainOfExtendsStartsACycle(mode: [String]) throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        // variant → middle → base, base → b1; b2 has the knob.
        let b1 = dir.appendingPathComponent("rules"), b2 = try Self.rules("b2", in: dir, knob: true)
        let base = dir.appendingPathComponent("base")
        try FileManager.default.createSymbolicLink(atPath: base.path, withDestinationPath: "rules")
        for (folder, extends) in [("variant", "../middle"), ("middle", "../base")] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
            try WatchCommandTests.save(extends + "\n", to: dir.appendingPathComponent(folder + "/extends"))
        }
        let watch = try Self.watch(dir.appendingPathComponent("variant"), in: dir, mode)

        try Self.swap(base, to: "b2")
        let swapped = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(swapped.contains("cycle 2: base is now the folder \(Self.real(b2))"), "\(swapped)")
        #expect(swapped.contains(Self.knobbed), "\(swapped)")
        try watch.waitForLine(containing: "watching")

        try Self.resave("streaks.lua", in: b1)
        try Self.setKnob(false, in: b2)
        let edited = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(edited.contains("cycle 3: base/escalation.lua changed\n"), "\(edited)")
        #expect(edited.contains(Self.unknobbed))
        #expect(try watch.stop() == 0)
    }

    @Test(arguments: modes) func aSwapOfTheTestsFolderRunsTheNewTests(mode: [String]) throws {
        let failing = CLI.edit(WatchCommandTests.recoveryTest, [("expect_eq(after.current_tier, 0)", "expect_eq(after.current_tier, 1)")])
        let dir = try CLI.folder([
            "events.jsonl": WatchCommandTests.events, "tests-v1/recovery_test.lua": WatchCommandTests.recoveryTest,
            "tests-v2/recovery_test.lua": failing,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try Self.rules("rules", in: dir)
        let tests = rules.appendingPathComponent("tests")
        try FileManager.default.createSymbolicLink(atPath: tests.path, withDestinationPath: "../tests-v1")
        let watch = try Self.watch(rules, in: dir, mode, tests: true)

        try Self.swap(tests, to: "../tests-v2")
        let swapped = try watch.waitForLine(containing: "\ncycle 2: ")
        let v2 = Self.real(dir.appendingPathComponent("tests-v2"))
        #expect(swapped.contains("cycle 2: \(tests.path) is now the folder \(v2)\n"), "\(swapped)")
        #expect(swapped.contains("FAIL  tests/recovery_test.lua:1 test_one_yes_leaves_tier_1"), "\(swapped)")
        #expect(swapped.contains("tests: 0 passed, 1 failed"))
        try watch.waitForLine(containing: "watching")

        // The tests of the old folder are no longer the rule set's; a fix in the new one passes.
        try WatchCommandTests.save(failing, to: dir.appendingPathComponent("tests-v1/other_test.lua"))
        try WatchCommandTests.save(WatchCommandTests.recoveryTest, to: dir.appendingPathComponent("tests-v2/recovery_test.lua"))
        let fixed = try watch.waitForLine(containing: "\ncycle 3: ")
        #expect(fixed.contains("cycle 3: \(tests.path)/recovery_test.lua changed\n"), "\(fixed)")
        #expect(fixed.contains("tests: 1 passed, 0 failed"), "\(fixed)")
        #expect(try watch.stop() == 0)
    }

    /// The folder that holds the rule folder is watched for the rule folder's entry: files made and
    /// renamed beside it without a pause (a build, an editor's temporary files) neither start a cycle
    /// nor hold back the one a save starts.
    @Test func filesMadeBesideTheFolderWithoutAPauseDoNotHoldBackACycle() throws {
        let dir = try WatchCommandTests.fixture()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = dir.appendingPathComponent("rules")
        let watch = try Self.watch(rules, in: dir, [])
        let done = NSLock()
        nonisolated(unsafe) var stop = false
        let noise = Thread {
            var count = 0
            while !done.withLock({ stop }) {
                let file = dir.appendingPathComponent("build-\(count % 4).tmp")
                try? "\(count)".write(to: file, atomically: true, encoding: .utf8)  // a write and a rename
                count += 1
                usleep(20_000)
            }
        }
        noise.start()
        defer { done.withLock { stop = true } }
        try Self.setKnob(true, in: rules)
        let edited = try watch.waitForLine(containing: "\ncycle 2: ")
        #expect(edited.contains("cycle 2: \(rules.path)/escalation.lua changed\n"), "\(edited)")
        #expect(edited.contains(Self.knobbed))
        #expect(try watch.stop() == 0)
        #expect(!watch.stdout.contains("cycle 3"))
    }
}
