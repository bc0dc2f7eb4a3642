import Foundation
import GRDB
import RulesEngine
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// examples/app, a package of its own that depends on this one by path and uses its public API only
/// (what proves the package can be a dependency), built with the tests' toolchain and run as an app
/// runs: bundles built and signed, served over HTTP, fetched, verified, activated; events applied;
/// a failing revision rolled back by probation with nothing lost in the database; an experiment's arms.
@Suite struct ExampleAppTests {
    /// The example's executable: built once per run under `.build/example-app` (kept, so that a
    /// second run reuses the compiled dependencies), or the build's output when it failed.
    static let built: Result<URL, BuildFailure> = buildExample()

    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    static func buildExample() -> Result<URL, BuildFailure> {
        let root = CLI.packageRoot
        let package = root.appendingPathComponent("examples/app")
        let scratch = root.appendingPathComponent(".build/example-app")
        // The root's pins, when it has them: the example builds the versions the package is built with.
        let pins = root.appendingPathComponent("Package.resolved")
        if FileManager.default.fileExists(atPath: pins.path) {
            let copy = package.appendingPathComponent("Package.resolved")
            try? FileManager.default.removeItem(at: copy)
            try? FileManager.default.copyItem(at: pins, to: copy)
        }
        let swift = swiftExecutable()
        let arguments = ["build", "--package-path", package.path, "--scratch-path", scratch.path]
        let start = Date()
        let result: CLI.Result
        do {
            result = try CLI.run(arguments, in: package, executableURL: swift, timeout: .seconds(3600))
        } catch {
            return .failure(BuildFailure(description: "\(swift.path) \(arguments.joined(separator: " ")) did not start: \(error)"))
        }
        print(String(format: "examples/app built in %.1f s (\(swift.path))", Date().timeIntervalSince(start)))
        let app = scratch.appendingPathComponent("debug/app-example")
        guard result.status == 0, FileManager.default.isExecutableFile(atPath: app.path) else {
            return .failure(
                BuildFailure(
                    description:
                        "\(swift.path) \(arguments.joined(separator: " ")) exited \(result.status):\n\(result.stdout)\(result.stderr)"))
        }
        return .success(app)
    }

    /// The `swift` of the toolchain that runs the tests: beside `swift-test`, the tests' parent
    /// process on Linux, else the first on PATH.
    static func swiftExecutable() -> URL {
        #if os(Linux)
            if let parent = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(getppid())/exe") {
                let beside = URL(fileURLWithPath: parent).deletingLastPathComponent().appendingPathComponent("swift")
                if URL(fileURLWithPath: parent).lastPathComponent.hasPrefix("swift"),
                    FileManager.default.isExecutableFile(atPath: beside.path)
                {
                    return beside
                }
            }
        #endif
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/swift") {
            return URL(fileURLWithPath: "\(folder)/swift")
        }
        return URL(fileURLWithPath: "/usr/bin/swift")
    }

    /// The suite's bundles, in a folder of its own: a key pair `k.key`/`k.pub`; `r1.bundle`, the
    /// default rules (without their tests) as revision 1, which the app ships with; `r2`, revision 2,
    /// whose rules fail at run time on every NO check-in (built without validation, whose proofs would
    /// refuse it), and `r2Again`, the same built again (another file); `x.bundle`, revision 2 running
    /// experiment `trial`: the default rules as the control and arm `lenient`, which escalates from
    /// the second miss in a row.
    struct Bundles {
        let folder: URL
        let r1: [UInt8], r2: [UInt8], r2Again: [UInt8], x: [UInt8]

        init() throws {
            let folder = try BundleCommandTests.copyOfTheRules(in: "rules")
            self.folder = folder
            let manager = FileManager.default
            for (name, edit) in [
                ("lenient", ("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 2, 3, 4 }")),
                (
                    "failing",
                    (
                        "function M.transition(state, check_in)",
                        "function M.transition(state, check_in)\n  if check_in.result == \"NO\" then error(\"boom\") end"
                    )
                ),
            ] {
                let copy = folder.appendingPathComponent(name)
                try manager.copyItem(at: folder.appendingPathComponent("rules"), to: copy)
                let file = copy.appendingPathComponent("escalation.lua")
                try CLI.edit(try String(contentsOf: file, encoding: .utf8), [edit]).write(to: file, atomically: true, encoding: .utf8)
            }
            for command in [
                ["keygen", "k"], ["bundle", "rules", "--key", "k.key", "--out", "r1.bundle"],
                [
                    "bundle", "rules", "--key", "k.key", "--out", "x.bundle", "--revision", "2", "--experiment", "trial", "--arm",
                    "lenient=lenient",
                ],
            ] {
                let result = CLI.inProcess(command, in: folder)
                guard result.status == 0 else { throw BuildFailure(description: "rulesrun \(command): \(result.stderr)") }
            }
            let key = try BundleSigningKey(file: folder.appendingPathComponent("k.key").path)
            let failing = { (builtWith: String) in
                try RuleBundle.build(
                    folder: folder.appendingPathComponent("failing").path, key: key, revision: 2, rollback: false, created: Date(),
                    builtWith: builtWith, provedFunctions: 0, provedInputs: 0, testsPassed: 0, testsFailed: 0)
            }
            let bytes = { (name: String) in [UInt8](try Data(contentsOf: folder.appendingPathComponent(name))) }
            (r1, r2, r2Again, x) = (try bytes("r1.bundle"), try failing("test"), try failing("test, again"), try bytes("x.bundle"))
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
    }

    static let bundles = Result { try Bundles() }

    /// One line the app printed (examples/app/README.md): a poll's, a status's or an event's.
    struct Answer: Decodable {
        var ok: Bool?
        var code: String?
        var message: String?
        var poll: String?
        var revision: Int?
        var error: String?
        var status: Status?
        var activeRevision: Int?
        var refusedRevisions: [Int]?
    }

    struct Status: Decodable, Equatable {
        var activeRevision: Int
        var onProbation: Bool
        var lastGoodRevision: Int?
        var refusedRevisions: [Int]
        var lastError: String?
    }

    /// The app running in `folder` (its bundles in `bundles/`, its database `app.sqlite`), polling
    /// `server`; the events it applied, in order.
    final class App {
        let process: WatchProcess
        private(set) var applied: [String] = []

        init(_ app: URL, in folder: URL, server: LoopbackHTTPServer, key: String, initial: String?) throws {
            process = try WatchProcess(
                [
                    "--url", server.url().absoluteString, "--public-key", key, "--folder", "bundles", "--db", "app.sqlite",
                    "--probation-events", "20", "--probation-failures", "2",
                ] + (initial.map { ["--initial", $0] } ?? []), in: folder, executableURL: app, input: true)
        }

        /// Sends `line` and reads the answer.
        func say(_ line: String) throws -> Answer {
            try process.send(line)
            let answer = try JSONDecoder.snakeCase.decode(Answer.self, from: Data(try process.nextLine().utf8))
            if answer.ok == true { applied.append(line) }
            return answer
        }

        func poll() throws -> Answer { try say("poll") }

        /// Each event of `lines` applied (an issue for one refused).
        func apply(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            for line in lines {
                let answer = try say(line)
                #expect(answer.ok == true, "\(line): \(answer.code ?? "") \(answer.message ?? "")", sourceLocation: sourceLocation)
            }
        }
    }

    static func event(_ user: String, _ day: Int, _ time: String, _ fields: String) -> String {
        "{\"at\": \"2026-03-0\(day)T\(time):00Z\", \"user\": \"\(user)\", \(fields)}"
    }

    static func commit(_ user: String, _ day: Int) -> String {
        event(user, day, "08:00", "\"type\": \"commitment\", \"text\": \"Day \(day)\"")
    }

    static func checkIn(_ user: String, _ day: Int, _ result: String, at time: String = "12:00") -> String {
        event(user, day, time, "\"type\": \"check_in\", \"result\": \"\(result)\"")
    }

    /// Users' days: each committed and checked in with its result.
    static func days(_ day: Int, _ results: [(String, String)]) -> [String] {
        results.map { commit($0.0, day) } + results.map { checkIn($0.0, day, $0.1) }
    }

    /// Every row of every table of the database at `path`, each table's sorted.
    static func rows(_ path: String) throws -> [String: [String]] {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map(\.description).sorted()
            }
            return tables
        }
    }

    /// `column` of the rows of `table` by `key`, an expression of the user's name (`s.name`, from
    /// engine_state) and the table's columns (`t.day_id`), as text (`NULL`).
    static func column(_ path: String, _ column: String, of table: String, by key: String) throws -> [String: String] {
        try DatabaseQueue(path: path).read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(key), CAST(t.\(column) AS TEXT) FROM \(table) t JOIN engine_state s ON s.user_id = t.user_id")
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as String? ?? "NULL") })
        }
    }

    @Test func aFailingRevisionIsRolledBackByProbationAndNothingIsLost() throws {
        let app = try Self.built.get()
        let bundles = try Self.bundles.get()
        let folder = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = StaticHost(bundles.r1, etag: "\"r1\"")
        let server = try LoopbackHTTPServer(host.respond)
        defer { server.stop() }
        let running = try App(app, in: folder, server: server, key: bundles.path("k.pub"), initial: bundles.path("r1.bundle"))
        // The server has the bundle the app ships with: nothing to activate.
        let first = try running.poll()
        #expect(first.poll == "not_modified")
        #expect(first.status == Status(activeRevision: 1, onProbation: false, lastGoodRevision: 1, refusedRevisions: [], lastError: nil))
        try running.apply(Self.days(2, [("u1", "YES"), ("u2", "NO"), ("u3", "YES")]))
        try running.apply(Self.days(3, [("u1", "NO"), ("u2", "YES"), ("u3", "NO")]))

        // Revision 2 published: fetched, verified, activated, on probation.
        host.serve(bundles.r2, etag: "\"r2\"")
        let second = try running.poll()
        #expect(second.poll == "activated" && second.revision == 2, "\(second)")
        #expect(second.status == Status(activeRevision: 2, onProbation: true, lastGoodRevision: 1, refusedRevisions: [], lastError: nil))
        try running.apply(["u1", "u2", "u3"].map { Self.commit($0, 4) } + [Self.checkIn("u1", 4, "YES")])
        // Its rules fail on every NO: the third failure (more than 2) rolls it back to revision 1.
        var failures: [String] = []
        for line in [Self.checkIn("u2", 4, "NO"), Self.checkIn("u3", 4, "NO"), Self.commit("u1", 5), Self.checkIn("u1", 5, "NO")] {
            let answer = try running.say(line)
            if answer.ok != true { failures.append("\(answer.code ?? "") \(answer.message?.contains("boom") == true)") }
        }
        #expect(failures == ["RULE_ERROR true", "RULE_ERROR true", "RULE_ERROR true"])
        let rolledBack = try running.say("status")
        #expect(rolledBack.activeRevision == 1 && rolledBack.refusedRevisions == [2], "\(rolledBack)")
        // The same file is not downloaded again (304), the status says why it is not in force;
        // republished (another ETag), it is refused.
        let notAgain = try running.poll()
        #expect(notAgain.poll == "not_modified" && server.requests.last?.header("If-None-Match") == "\"r2\"")
        let status = try #require(notAgain.status)
        #expect(status.activeRevision == 1 && !status.onProbation && status.lastGoodRevision == 1 && status.refusedRevisions == [2])
        #expect(
            status.lastError?.hasPrefix("revision 2 rolled back by probation: 3 rule failures in its first 8 events") == true, "\(status)")
        host.serve(bundles.r2Again, etag: "\"r2-again\"")
        let again = try running.poll()
        #expect(again.poll == "refused" && again.status?.activeRevision == 1)
        #expect(again.error?.hasSuffix(": revision 2 was rolled back by probation and is refused from now on") == true, "\(again)")
        // The refused check-ins left nothing: sent again, under revision 1, they apply.
        try running.apply([
            Self.checkIn("u2", 4, "NO", at: "12:30"), Self.checkIn("u3", 4, "NO", at: "12:30"), Self.checkIn("u1", 5, "NO", at: "12:30"),
        ])
        try running.apply(Self.days(6, [("u1", "YES"), ("u2", "YES"), ("u3", "NO")]))
        #expect(try running.process.finish() == 0, "\(running.process.stderr)")
        #expect(running.process.stderr.contains("rolled back by probation"), "\(running.process.stderr)")

        // Restarted: revision 1 from the folder, revision 2 still refused, the users' days kept.
        let restarted = try App(app, in: folder, server: server, key: bundles.path("k.pub"), initial: nil)
        let after = try restarted.say("status")
        #expect(after.activeRevision == 1 && after.refusedRevisions == [2])
        #expect(try restarted.poll().poll == "refused")
        let u1 = try restarted.say(Self.checkIn("u1", 6, "NO", at: "13:00"))
        #expect(u1.code == "ALREADY_CHECKED_IN", "\(u1)")
        try restarted.apply(Self.days(7, [("u2", "YES")]))
        #expect(try restarted.process.finish() == 0, "\(restarted.process.stderr)")

        // In the database: each check-in at the time of the one that was applied.
        let db = folder.appendingPathComponent("app.sqlite").path
        let statuses = try Self.column(db, "status", of: "pressure_commitment", by: "s.name || ' ' || t.day_id")
        let expected = [
            "u1": ["YES", "NO", "YES", "NO", "YES"], "u2": ["NO", "YES", "NO", nil, "YES", "YES"], "u3": ["YES", "NO", "NO", nil, "NO"],
        ]
        for (user, results) in expected {
            for (offset, result) in results.enumerated() {
                guard let result else { continue }
                #expect(statuses["\(user) 2026-03-0\(offset + 2)"] == result, "\(user), March \(offset + 2)")
            }
        }
        let times = try Self.column(db, "checked_in_at_ts_utc_ms", of: "pressure_commitment", by: "s.name || ' ' || t.day_id")
        let halfPastNoon = { (day: Int) in
            "\(Int(ISO8601DateFormatter().date(from: "2026-03-0\(day)T12:30:00Z")!.timeIntervalSince1970) * 1000)"
        }
        #expect(
            times["u2 2026-03-04"] == halfPastNoon(4) && times["u3 2026-03-04"] == halfPastNoon(4)
                && times["u1 2026-03-05"] == halfPastNoon(5))
        // Exactly what a replay of the events the app applied writes.
        let log = folder.appendingPathComponent("applied.jsonl")
        try (running.applied + restarted.applied).joined(separator: "\n").write(to: log, atomically: true, encoding: .utf8)
        let replay = CLI.inProcess(["replay", log.path, "--db", "replayed.sqlite", "--rules", bundles.path("rules")], in: folder)
        #expect(replay.status == 0, "\(replay.stderr)")
        let (ours, replayed) = (try Self.rows(db), try Self.rows(folder.appendingPathComponent("replayed.sqlite").path))
        #expect(ours.keys.sorted() == replayed.keys.sorted())
        for (table, rows) in ours.sorted(by: { $0.key < $1.key }) {
            // Every row alike but the database's own id.
            let mine = { (rows: [String]?) in rows?.filter { table != "meta" || !$0.contains("key:\"device_id\"") } }
            #expect(mine(rows) == mine(replayed[table]), "table \(table)")
        }
        #expect(ours["pressure_commitment"]?.count ?? 0 >= 15)
    }

    @Test func eachUserRunsUnderItsArmAndIsExposedOnce() throws {
        let app = try Self.built.get()
        let bundles = try Self.bundles.get()
        let folder = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = StaticHost(bundles.x, etag: "\"x\"")
        let server = try LoopbackHTTPServer(host.respond)
        defer { server.stop() }
        let running = try App(app, in: folder, server: server, key: bundles.path("k.pub"), initial: bundles.path("r1.bundle"))
        let activated = try running.poll()
        #expect(activated.poll == "activated" && activated.revision == 2, "\(activated)")
        // The arms the bundle assigns.
        let key = try BundlePublicKey(file: bundles.path("k.pub"))
        let experiment = try #require(try RuleBundle.read(bundles.x, source: "x.bundle", trusting: [key]).manifest.experiment)
        let users = (1...20).map { "u\($0)" }
        let arms = Dictionary(uniqueKeysWithValues: users.map { ($0, experiment.arms[experiment.armIndex(of: $0)].name) })
        try #require(Set(arms.values) == ["control", "lenient"])
        // Two events each: a commitment and a NO (a miss: tier 1 under the control, 0 under lenient).
        try running.apply(Self.days(2, users.map { ($0, "NO") }))
        #expect(try running.process.finish() == 0, "\(running.process.stderr)")

        let db = folder.appendingPathComponent("app.sqlite").path
        let exposures = try DatabaseQueue(path: db).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT s.name, e.experiment, e.arm, e.revision FROM experiment_exposure e JOIN engine_state s ON s.user_id = e.user_id
                    """
            ).map { ($0[0] as String, "\($0[1] as String) \($0[2] as String) \($0[3] as Int)") }
        }
        #expect(exposures.count == users.count)
        #expect(Dictionary(exposures, uniquingKeysWith: { $0 + ", " + $1 }) == arms.mapValues { "trial \($0) 2" })
        let tiers = try Self.column(db, "current_tier", of: "pressure_escalation_state", by: "s.name")
        #expect(tiers == arms.mapValues { $0 == "lenient" ? "0" : "1" })
    }
}

extension JSONDecoder {
    /// A decoder of snake_case keys into camelCase properties.
    static var snakeCase: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}
