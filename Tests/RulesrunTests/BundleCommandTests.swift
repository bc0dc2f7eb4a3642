import Foundation
import TestSupport
import Testing

/// `rulesrun keygen` and `rulesrun bundle` (build, verify, inspect, diff), run as a user runs them
/// (docs/bundles.md).
@Suite struct BundleCommandTests {
    static let rules = CLI.packageRoot.appendingPathComponent("rules").path
    static let nightSurcharge = CLI.packageRoot.appendingPathComponent("examples/night-surcharge").path

    /// Built once for the suite (validating and testing a rule folder is what costs): a key pair
    /// `k.key`/`k.pub`, the default rules' bundle `rules.bundle` and night-surcharge's
    /// `night.bundle`, with what each command printed.
    struct Built {
        let folder: URL
        let keygen: CLI.Result
        let rules: CLI.Result
        let night: CLI.Result

        init() throws {
            folder = try CLI.folder([:])
            keygen = CLI.inProcess(["keygen", "k"], in: folder)
            rules = CLI.inProcess(["bundle", BundleCommandTests.rules, "--key", "k.key", "--out", "rules.bundle"], in: folder)
            night = CLI.inProcess(["bundle", BundleCommandTests.nightSurcharge, "--key", "k.key", "--out", "night.bundle"], in: folder)
        }

        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        func bytes(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }
        var keyID: String { String(keygen.stdout.split(separator: " ").last?.dropLast(2) ?? "") }
    }

    static let built = try! Built()

    /// A bundle of the suite's copied into a folder of the test's own.
    static func copy(_ name: String, to folder: URL, as target: String? = nil) throws {
        try FileManager.default.copyItem(
            at: built.folder.appendingPathComponent(name), to: folder.appendingPathComponent(target ?? name))
    }

    /// A folder holding `files` and, under `folder/`, a copy of the default rule files without
    /// their tests: a bundle of it is quick to build (nothing to test but what `files` add).
    static func copyOfTheRules(in folder: String, _ files: [String: String] = [:]) throws -> URL {
        var all = files
        for name in ["escalation.lua", "streaks.lua", "pricing.lua", "quests.lua", "modes.lua"] where all["\(folder)/\(name)"] == nil {
            all["\(folder)/\(name)"] = try String(contentsOfFile: "\(rules)/\(name)", encoding: .utf8)
        }
        return try CLI.folder(all)
    }

    static func mode(_ path: String) throws -> Int {
        try ((FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
    }

    @Test func keygenWritesAPrivateAndAPublicKeyAndReplacesNeither() throws {
        let dir = try CLI.folder([:])
        let made = try CLI.run(["keygen", "release"], in: dir)
        #expect(made.status == 0, "\(made.stderr)")
        let id = try #require(made.stdout.split(separator: " ").last.map { String($0.dropLast(2)) })
        #expect(made.stdout == "wrote release.key (private: keep it secret) and release.pub (public key \(id))\n")
        #expect(id.count == 16)
        let (key, pub) = (dir.appendingPathComponent("release.key").path, dir.appendingPathComponent("release.pub").path)
        #expect(try Self.mode(key) == 0o600)
        #expect(try Self.mode(pub) == 0o644)
        #expect(try String(contentsOfFile: key, encoding: .utf8).hasPrefix("rulesrun-ed25519-private-key "))
        #expect(try String(contentsOfFile: pub, encoding: .utf8).hasPrefix("rulesrun-ed25519-public-key "))
        let (keyBytes, pubBytes) = (try Data(contentsOf: URL(fileURLWithPath: key)), try Data(contentsOf: URL(fileURLWithPath: pub)))
        // Neither file is replaced: both there, or either one.
        let again = try CLI.run(["keygen", "release"], in: dir)
        #expect(again.status == 2)
        #expect(again.stderr == "release.key: exists; a key file is never replaced (remove it, or choose another name)\n")
        try FileManager.default.removeItem(atPath: key)
        let onlyPublic = try CLI.run(["keygen", "release"], in: dir)
        #expect(onlyPublic.status == 2)
        #expect(onlyPublic.stderr == "release.pub: exists; a key file is never replaced (remove it, or choose another name)\n")
        #expect(!FileManager.default.fileExists(atPath: key))
        #expect(try Data(contentsOf: URL(fileURLWithPath: pub)) == pubBytes)
        try keyBytes.write(to: URL(fileURLWithPath: key))
        try FileManager.default.removeItem(atPath: pub)
        let onlyPrivate = try CLI.run(["keygen", "release"], in: dir)
        #expect(onlyPrivate.status == 2 && onlyPrivate.stderr.hasPrefix("release.key: exists;"))
        #expect(!FileManager.default.fileExists(atPath: pub))
        #expect(try Data(contentsOf: URL(fileURLWithPath: key)) == keyBytes)
    }

    /// night-surcharge extends ../../rules and has a metrics.lua: all of it is in the bundle, which
    /// stands alone.
    @Test func buildVerifyAndInspectAFolderThatExtendsAnother() throws {
        let built = Self.built
        #expect(built.keygen.status == 0, "\(built.keygen.stderr)")
        #expect(built.night.status == 0, "\(built.night.stderr)")
        #expect(built.night.stdout.hasPrefix("wrote night.bundle: revision 1, 8 files, "), "\(built.night.stdout)")
        #expect(built.night.stdout.contains(", signed by \(built.keyID); "))
        #expect(built.night.stdout.hasSuffix(" tests passed\n"))
        let verified = CLI.inProcess(["bundle", "verify", "night.bundle", "--public-key", "k.pub"], in: built.folder)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.stdout == "night.bundle: valid bundle, revision 1, signed by \(built.keyID), 8 files, the rules load\n")
        let inspected = CLI.inProcess(["bundle", "inspect", "night.bundle"], in: built.folder)
        #expect(inspected.status == 0, "\(inspected.stderr)")
        let lines = inspected.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "night.bundle: revision 1, signed by key \(built.keyID) (not checked: bundle verify checks it)")
        #expect(lines.contains { $0.hasPrefix("  created      ") && $0.hasSuffix(" from \(Self.nightSurcharge)") })
        #expect(
            lines.filter { $0.contains(" bytes  sha256 ") }.map { String($0.split(separator: " ")[0]) } == [
                "pricing.lua", "metrics.lua", "extends", "base/escalation.lua", "base/streaks.lua", "base/pricing.lua", "base/quests.lua",
                "base/modes.lua",
            ])
        // --json: the manifest, as signed.
        let json = CLI.inProcess(["bundle", "inspect", "night.bundle", "--json"], in: built.folder)
        #expect(json.status == 0)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(manifest["revision"] as? Int == 1 && manifest["rollback"] as? Bool == false)
        #expect((manifest["files"] as? [[String: Any]])?.count == 8)
        #expect((manifest["tests"] as? [String: Any])?["failed"] as? Int == 0)
    }

    /// `bundle fetch` from a real HTTP server on loopback: a good bundle is checked and kept; a 404, a
    /// bundle of an untrusted key and a cut body are refused, and --out stays as it was.
    @Test func fetchChecksWhatAHostServesAndKeepsOnlyAGoodBundle() throws {
        let dir = try CLI.folder([:])
        try Self.copy("k.pub", to: dir)
        let good = Array(try Self.built.bytes("rules.bundle"))
        let host = StaticHost(good, etag: "\"r1\"")
        let server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/rules.bundle": host.respond(request)
            case "/cut.bundle":
                LoopbackHTTPServer.Response(status: 200, body: .cut(Array(good.prefix(good.count / 2)), announced: good.count))
            default: .status(404)
            }
        }
        defer { server.stop() }
        let url = server.url().absoluteString
        let fetched = try CLI.run(["bundle", "fetch", url, "--public-key", "k.pub", "--out", "live.bundle"], in: dir)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(fetched.stdout.hasPrefix("\(url): valid bundle, revision 1, signed by \(Self.built.keyID), "), "\(fetched.stdout)")
        #expect(fetched.stdout.hasSuffix("the rules load; \(good.count) bytes, ETag \"r1\"\n"), "\(fetched.stdout)")
        #expect(Array(try Data(contentsOf: dir.appendingPathComponent("live.bundle"))) == good)
        let missing = try CLI.run(
            ["bundle", "fetch", server.url("/none.bundle").absoluteString, "--public-key", "k.pub", "--out", "live.bundle"], in: dir)
        #expect(
            missing.status == 1 && missing.stderr.hasSuffix("/none.bundle: HTTP 404, expected 200 (or 304 when the bundle is not modified)\n"))
        #expect(try CLI.run(["keygen", "other"], in: dir).status == 0)
        let untrusted = try CLI.run(["bundle", "fetch", url, "--public-key", "other.pub", "--out", "live.bundle"], in: dir)
        #expect(untrusted.status == 1 && untrusted.stderr.contains("\(url): signed by key \(Self.built.keyID), which is not a trusted key"))
        let cut = try CLI.run(
            ["bundle", "fetch", server.url("/cut.bundle").absoluteString, "--public-key", "k.pub", "--out", "live.bundle"], in: dir)
        #expect(
            cut.status == 1 && cut.stderr.contains("/cut.bundle: the body ended after \(good.count / 2) of the \(good.count) bytes"),
            "\(cut.stderr)")
        #expect(Array(try Data(contentsOf: dir.appendingPathComponent("live.bundle"))) == good)
    }

    /// The revision goes up by one on each build to the same --out, unless given; --rollback marks it.
    @Test func theRevisionAutoIncrementsAndRollbackMarksTheBundle() throws {
        let dir = try Self.copyOfTheRules(in: "plain")
        try Self.copy("k.key", to: dir)
        try Self.copy("k.pub", to: dir)
        let build = ["bundle", "plain", "--key", "k.key", "--out", "plain.bundle"]
        let first = try CLI.run(build, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("wrote plain.bundle: revision 1, 5 files, "), "\(first.stdout)")
        let second = try CLI.run(build, in: dir)
        #expect(second.stdout.hasPrefix("wrote plain.bundle: revision 2, 5 files, "), "\(second.stdout)\(second.stderr)")
        let given = try CLI.run(build + ["--revision", "7"], in: dir)
        #expect(given.stdout.hasPrefix("wrote plain.bundle: revision 7, "), "\(given.stdout)\(given.stderr)")
        let rollback = try CLI.run(build + ["--rollback"], in: dir)
        #expect(rollback.stdout.hasPrefix("wrote plain.bundle: revision 8 (rollback), "), "\(rollback.stdout)\(rollback.stderr)")
        let verified = try CLI.run(["bundle", "verify", "plain.bundle", "--public-key", "k.pub"], in: dir)
        #expect(verified.stdout.hasPrefix("plain.bundle: valid bundle, revision 8 (rollback), "), "\(verified.stdout)\(verified.stderr)")
        let inspected = try CLI.run(["bundle", "inspect", "plain.bundle"], in: dir)
        #expect(inspected.stdout.hasPrefix("plain.bundle: revision 8 (rollback), "))
        let zero = try CLI.run(build + ["--revision", "0"], in: dir)
        #expect(zero.status == 2 && zero.stderr == "--revision: expected 1 to 2147483647, found 0\n")
        // Another key's bundle at --out: its revision is not this key's to continue.
        #expect(try CLI.run(["keygen", "other"], in: dir).status == 0)
        let other = try CLI.run(["bundle", "plain", "--key", "other.key", "--out", "plain.bundle"], in: dir)
        #expect(other.status == 2)
        #expect(
            other.stderr.hasPrefix("plain.bundle exists, but its revision cannot be read (plain.bundle: signed by key "), "\(other.stderr)")
        #expect(other.stderr.hasSuffix("); give --revision\n"))
    }

    /// A folder whose rules do not validate, or whose tests fail, writes nothing: the good bundle
    /// already at --out stays, byte for byte.
    @Test func aFolderThatFailsLeavesTheGoodBundleAsItWas() throws {
        let dir = try Self.copyOfTheRules(
            in: "failing", ["failing/tests/cap_test.lua": "function test_the_cap()\n  expect_eq(pricing.rollover_cap, 11)\nend\n"])
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("invalid"), withIntermediateDirectories: true)
        try "\(dir.path)/failing\n".write(to: dir.appendingPathComponent("invalid/extends"), atomically: true, encoding: .utf8)
        try "local M = base\nM.rollover_cap = -1\nreturn M\n".write(
            to: dir.appendingPathComponent("invalid/pricing.lua"), atomically: true, encoding: .utf8)
        try Self.copy("k.key", to: dir)
        try Self.copy("rules.bundle", to: dir, as: "good.bundle")
        let good = try Data(contentsOf: dir.appendingPathComponent("good.bundle"))
        let invalid = try CLI.run(["bundle", "invalid", "--key", "k.key", "--out", "good.bundle"], in: dir)
        #expect(invalid.status == 1)
        #expect(
            invalid.stderr.hasPrefix(
                "pricing.lua:2: rollover_cap: must be between 0 and 1000000 (economy_state CHECK rollover_cap >= 0), found -1\n"),
            "\(invalid.stderr)")
        #expect(invalid.stderr.hasSuffix("invalid: the rule set is not valid; no bundle was written\n"), "\(invalid.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("good.bundle")) == good)
        let failing = try CLI.run(["bundle", "failing", "--key", "k.key", "--out", "good.bundle"], in: dir)
        #expect(failing.status == 1)
        #expect(
            failing.stderr
                == "FAIL  tests/cap_test.lua:1 test_the_cap\nfailing: 1 test failed (rulesrun test failing shows them); no bundle was written\n"
        )
        #expect(try Data(contentsOf: dir.appendingPathComponent("good.bundle")) == good)
        // Nothing left beside it either.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["failing", "good.bundle", "invalid", "k.key"])
    }

    @Test func verifyRefusesAnotherKeyAPrivateKeyAndAChangedByte() throws {
        let dir = try CLI.folder([:])
        try Self.copy("k.key", to: dir)
        try Self.copy("rules.bundle", to: dir)
        let other = try CLI.run(["keygen", "other"], in: dir)
        let otherID = try #require(other.stdout.split(separator: " ").last.map { String($0.dropLast(2)) })
        let wrongKey = try CLI.run(["bundle", "verify", "rules.bundle", "--public-key", "other.pub"], in: dir)
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stderr == "rules.bundle: signed by key \(Self.built.keyID), which is not a trusted key (trusted: \(otherID))\n")
        let privateKey = try CLI.run(["bundle", "verify", "rules.bundle", "--public-key", "k.key"], in: dir)
        #expect(privateKey.status == 1)
        #expect(
            privateKey.stderr
                == "k.key: a private key, expected a public one (one line: rulesrun-ed25519-public-key and the key's 32 bytes in base64)\n")
        // One byte of a rule file changed in the bundle file.
        let text = try String(contentsOf: dir.appendingPathComponent("rules.bundle"), encoding: .utf8)
        #expect(text.contains("credits = 25"))
        try text.replacingOccurrences(of: "credits = 25", with: "credits = 26").write(
            to: dir.appendingPathComponent("rules.bundle"), atomically: true, encoding: .utf8)
        try Self.copy("k.pub", to: dir)
        let tampered = try CLI.run(["bundle", "verify", "rules.bundle", "--public-key", "k.pub"], in: dir)
        #expect(tampered.status == 1)
        #expect(tampered.stderr == "rules.bundle: pricing.lua: its SHA-256 is not the one the manifest signed (the file was changed)\n")
    }

    /// The default rules against night-surcharge: pricing.lua's price function, the param it
    /// declares, metrics.lua added, the default files moved under base/.
    @Test func diffListsTheFilesParamsAndFunctionsThatDiffer() throws {
        let built = Self.built
        // The default rules' own tests, every case of their properties (TestCommandTests runs fewer).
        #expect(
            built.rules.status == 0 && built.rules.stdout.hasSuffix(", 39 tests passed\n"),
            "\(built.rules.stdout)\(built.rules.stderr)")
        let diff = CLI.inProcess(["bundle", "diff", "rules.bundle", "night.bundle"], in: built.folder)
        #expect(diff.status == 1, "\(diff.stderr)")
        let lines = diff.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "rules.bundle → night.bundle: the rules differ: 8 files, 0 knobs, 1 param, 1 function (signatures not checked: bundle verify checks them)"
        )
        #expect(lines.contains("manifest"))
        #expect(lines.contains { $0.hasPrefix("  source: \(Self.rules) → \(Self.nightSurcharge)") })
        #expect(lines.contains { $0.hasPrefix("  changed  pricing.lua  ") })
        #expect(
            lines.contains("  moved    escalation.lua → base/escalation.lua  (the same \(try Self.size("rules/escalation.lua")) bytes)"))
        #expect(lines.contains("  added    metrics.lua  \(try Self.size("examples/night-surcharge/metrics.lua")) bytes"))
        #expect(
            lines.contains { $0.hasPrefix("  added    base/pricing.lua  ") && $0.hasSuffix(" bytes (the same bytes as A's pricing.lua)") })
        #expect(lines.contains("  pricing.params.night_surcharge: (none) → night_surcharge integer 0…200 = 50"))
        #expect(lines.contains("  pricing.price: pricing.lua:47-52 → pricing.lua:20-28"))
        #expect(!lines.contains("knobs"))
        // --json: the same, for tools.
        let json = CLI.inProcess(["bundle", "diff", "rules.bundle", "night.bundle", "--json"], in: built.folder)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["same_rules"] as? Bool == false && object["signatures_checked"] as? Bool == false)
        let functions = try #require(object["functions"] as? [[String: Any]])
        #expect(functions.count == 1 && functions[0]["name"] as? String == "pricing.price")
        #expect((functions[0]["b"] as? [String: Any])?["first_line"] as? Int == 20)
        let params = try #require(object["params"] as? [[String: Any]])
        #expect(params.count == 1 && params[0]["a"] is NSNull && (params[0]["b"] as? [String: Any])?["default"] as? Int == 50)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.contains { $0["change"] as? String == "added" && $0["path"] as? String == "metrics.lua" })
    }

    @Test func diffOfABundleWithItselfExitsZeroAndABadInputTwo() throws {
        let built = Self.built
        let same = CLI.inProcess(["bundle", "diff", "rules.bundle", "rules.bundle"], in: built.folder)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(
            same.stdout
                == "rules.bundle → rules.bundle: the same rules (the same files) (signatures not checked: bundle verify checks them)\n")
        let bad = CLI.inProcess(["bundle", "diff", "rules.bundle", "k.pub"], in: built.folder)
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("k.pub: not a bundle (malformed or truncated JSON"), "\(bad.stderr)")
        #expect(bad.stdout.isEmpty)
    }

    static func size(_ path: String) throws -> Int {
        try Data(contentsOf: CLI.packageRoot.appendingPathComponent(path)).count
    }
}
