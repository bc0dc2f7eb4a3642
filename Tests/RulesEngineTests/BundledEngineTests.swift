import Foundation
import RulesEngine
import RulesModel
import RulesStore
import Testing

/// An app's engine on signed bundles: activation only after every check, the active and last good
/// bundles on disk, a restart from them, and probation rolling back a bundle whose rules fail.
@Suite struct BundledEngineTests {
    static let key = BundleSigningKey.generate()

    /// The default rules (escalation.lua edited by `edits`) as a bundle of `revision`.
    static func bundle(_ revision: Int, rollback: Bool = false, edits: [(old: String, new: String)] = []) throws -> [UInt8] {
        let dir = try RuleFixture.folder(with: try RuleFixture.edit(RuleFixture.defaultSource(), edits))
        defer { try? FileManager.default.removeItem(at: dir) }
        return try RuleBundle.build(
            folder: dir.path, key: key, revision: revision, rollback: rollback, created: Date(), builtWith: "test",
            provedFunctions: 16, provedInputs: 1, testsPassed: 0, testsFailed: 0)
    }

    /// Rules that fail at run time on every NO check-in (loaded and type-checked, as a bundle is
    /// before activation; the proofs that would have caught it did not run).
    static let failingOnNo: [(old: String, new: String)] = [
        ("function M.transition(state, check_in)", "function M.transition(state, check_in)\n  if check_in.result == \"NO\" then error(\"boom\") end")
    ]

    func folder() -> URL { FileManager.default.temporaryDirectory.appendingPathComponent("bundles-\(UUID().uuidString)") }

    func apply(_ engine: BundledEngine, _ line: String) -> Result<Engine.Outcome, EngineError> {
        let event: EngineEvent
        do { event = try EngineEvent.parse(line) } catch { return .failure(EngineError(.invalidEvent, "\(error)")) }
        do { return .success(try engine.apply(event)) } catch { return .failure(error) }
    }

    @Test func activationNeedsAHigherRevisionAndKeepsTheFilesOnDisk() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = try BundledEngine(store: Store.inMemory(), folder: dir, trustedKeys: [Self.key.publicKey], initial: try Self.bundle(1))
        #expect(engine.status.activeRevision == 1 && engine.status.lastGoodRevision == 1)
        let two = try Self.bundle(2, edits: [("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 2, 3, 4 }")])
        #expect(engine.status.activeRevision == 1)
        try engine.activate(two, source: "r2.bundle")
        #expect(engine.status.activeRevision == 2 && engine.status.onProbation)
        #expect(try Data(contentsOf: dir.appendingPathComponent("active.bundle")) == Data(two))
        // Not above the active revision: refused, nothing changes.
        let again = #expect(throws: BundleError.self) { try engine.activate(try Self.bundle(2), source: "r2b.bundle") }
        #expect(again?.message == "revision 2 is not above the active revision 2 (a bundle built with --rollback may go back)")
        #expect(engine.status.activeRevision == 2 && engine.status.lastError == again?.description)
        #expect(try Data(contentsOf: dir.appendingPathComponent("active.bundle")) == Data(two))
        // A rollback may go back.
        try engine.activate(try Self.bundle(1, rollback: true), source: "r1-rollback.bundle")
        #expect(engine.status.activeRevision == 1)
    }

    /// The new rules are in force from the next event; a tampered bundle changes nothing.
    @Test func theNewRulesTakeEffectAtOnceAndATamperedBundleChangesNothing() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = try BundledEngine(store: Store.inMemory(), folder: dir, trustedKeys: [Self.key.publicKey], initial: try Self.bundle(1))
        func tier(_ line: String) throws -> JSONValue? { try apply(engine, line).get().state["current_tier"] }
        #expect(try tier(Ev.commit(2)) == .int(0))
        #expect(try tier(Ev.checkIn(2, "NO")) == .int(1))
        let two = try Self.bundle(2, edits: [("M.tier_for_misses = { 1, 2, 3 }", "M.tier_for_misses = { 2, 3, 4 }")])
        var tampered = two
        tampered[tampered.count / 2] ^= 0x01
        #expect(throws: BundleError.self) { try engine.activate(tampered, source: "bad.bundle") }
        #expect(engine.status.activeRevision == 1 && engine.status.lastError != nil)
        #expect(try tier(Ev.commit(3)) == .int(1))
        #expect(try tier(Ev.checkIn(3, "NO")) == .int(2))
        try engine.activate(two, source: "r2.bundle")
        #expect(try tier(Ev.commit(4)) == .int(2))
        #expect(try tier(Ev.checkIn(4, "NO")) == .int(2))  // 3 misses: tier 2 under revision 2
    }

    /// Rules that fail roll back on their own: the last good rules are back, the failing revision
    /// is refused from then on, even after a restart, and nothing a failed event did is in the database.
    @Test func probationRollsBackAFailingBundle() throws {
        let dir = folder()
        let db = dir.appendingPathComponent("app.sqlite").path
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let bundles = dir.appendingPathComponent("bundles")
        var engine: BundledEngine? = try BundledEngine(
            store: Store.open(path: db), folder: bundles, trustedKeys: [Self.key.publicKey], initial: try Self.bundle(1),
            probation: .init(events: 100, maxFailures: 2))
        let failing = try Self.bundle(2, edits: Self.failingOnNo)
        try engine!.activate(failing, source: "r2.bundle")
        var codes: [String] = []
        for user in 1...4 {
            _ = apply(engine!, Ev.at(2, "08:00", "\"type\": \"commitment\", \"text\": \"x\"", user: "u\(user)"))
            if case .failure(let error) = apply(engine!, Ev.at(2, "12:00", "\"type\": \"check_in\", \"result\": \"NO\"", user: "u\(user)")) {
                codes.append(error.code.rawValue)
            }
        }
        #expect(codes == ["RULE_ERROR", "RULE_ERROR", "RULE_ERROR"])  // the third failure rolled back: u4's NO was applied
        let status = engine!.status
        #expect(status.activeRevision == 1 && !status.onProbation && status.refusedRevisions == [2])
        #expect(status.lastError?.hasPrefix("revision 2 rolled back by probation: 3 rule failures in its first") == true)
        #expect(throws: BundleError.self) { try engine!.activate(failing, source: "r2.bundle") }
        // The failed check-ins left nothing; u4's NO is there.
        let u4 = try apply(engine!, Ev.at(2, "13:00", "\"type\": \"tick\"", user: "u4")).get()
        #expect(u4.state["current_tier"] == .int(1))
        let u1 = try apply(engine!, Ev.at(2, "12:30", "\"type\": \"check_in\", \"result\": \"YES\"", user: "u1")).get()
        #expect(u1.state["current_tier"] == .int(0))
        // A second engine on the folder is refused while the first holds it; a restart keeps the refusal.
        #expect(throws: BundleError.self) { try BundledEngine(store: Store.inMemory(), folder: bundles, trustedKeys: [Self.key.publicKey]) }
        engine = nil
        let restarted = try BundledEngine(store: Store.open(path: db), folder: bundles, trustedKeys: [Self.key.publicKey])
        #expect(restarted.status.activeRevision == 1 && restarted.status.refusedRevisions == [2])
        #expect(throws: BundleError.self) { try restarted.activate(failing, source: "r2.bundle") }
    }

    /// A bundle that passes its probation becomes the last good one; a corrupt active bundle on
    /// disk is passed over at start for the last good one.
    @Test func aPassedProbationIsTheLastGoodAndACorruptActiveFileIsPassedOver() throws {
        let dir = folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var engine: BundledEngine? = try BundledEngine(
            store: Store.inMemory(), folder: dir, trustedKeys: [Self.key.publicKey], initial: try Self.bundle(1),
            probation: .init(events: 2, maxFailures: 0))
        try engine!.activate(try Self.bundle(2), source: "r2.bundle")
        _ = apply(engine!, Ev.commit(2))
        _ = apply(engine!, Ev.checkIn(2, "YES"))
        #expect(engine!.status.lastGoodRevision == 2 && !engine!.status.onProbation)
        try engine!.activate(try Self.bundle(3), source: "r3.bundle")
        engine = nil
        try Data("{\"rulesrun_bundle\": 1".utf8).write(to: dir.appendingPathComponent("active.bundle"))
        let restarted = try BundledEngine(store: Store.inMemory(), folder: dir, trustedKeys: [Self.key.publicKey])
        #expect(restarted.status.activeRevision == 2)
        #expect(restarted.status.lastError?.contains("active.bundle: not a bundle (malformed or truncated JSON") == true)
        // No bundle at all, and none given: a clear error.
        let empty = folder()
        defer { try? FileManager.default.removeItem(at: empty) }
        let error = #expect(throws: BundleError.self) { try BundledEngine(store: Store.inMemory(), folder: empty, trustedKeys: [Self.key.publicKey]) }
        #expect(error?.message == "no bundle to start from (give the app's initial bundle)")
    }
}
