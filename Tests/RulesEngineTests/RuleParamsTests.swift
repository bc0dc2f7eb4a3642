import Foundation
import LuaHost
import RulesEngine
import RulesModel
import Testing

/// Rule-declared params (`M.params`): the checks of a declaration, each at its file, line and field;
/// extending folders; the values a task or an event sets; the domain proofs run over.
@Suite struct RuleParamsTests {
    /// A folder extending the default rules whose `file` declares `params` (written from line 3).
    func folder(_ params: String, in file: String = "modes.lua", extra: [String: String] = [:]) throws -> URL {
        var files = extra
        files["child/extends"] = RuleFixture.rulesFolder.path
        files["child/\(file)"] = "local M = base\nM.params = {\n\(params)\n}\nreturn M\n"
        return try Self.write(files)
    }

    static func write(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("params-\(UUID().uuidString)")
        for (name, text) in files {
            let url = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// The problems of a rule set whose modes.lua declares `params` (line 3 on).
    func problems(_ params: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let dir = try folder(params)
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            _ = try RuleSet.load(dir.appendingPathComponent("child").path, proving: false)
        } catch let error as RuleSetError {
            return error.problems.map(\.description)
        }
        Issue.record("the params were accepted", sourceLocation: sourceLocation)
        return []
    }

    func load(_ params: String, in file: String = "modes.lua") throws -> RuleSet {
        let dir = try folder(params, in: file)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try RuleSet.load(dir.appendingPathComponent("child").path, proving: false)
    }

    static let declared = """
          freeze_max = { type = "integer", min = 0, max = 10, default = 2, doc = "freezes a user may hold" },
          ratio = { type = "number", min = 0.5, max = 2, default = 1 },
          strict = { type = "boolean", default = false },
          speed = { type = "enum", values = { "slow", "fast" }, default = "slow" },
        """

    // MARK: Declarations

    @Test func everyFileMayDeclareParamsAndAbsentParamsAreNone() throws {
        for file in RuleSet.fileNames {
            let rules = try load(Self.declared, in: file)
            #expect(rules.declaredParams.map(\.file) == [file], "\(file)")
            let params = try #require(rules.declaredParams.first?.params)
            #expect(params.params.map(\.name) == ["freeze_max", "ratio", "speed", "strict"])
            #expect(params["freeze_max"]?.defaultValue == .integer(2))
            #expect(params["freeze_max"]?.doc == "freezes a user may hold")
            #expect(params["ratio"]?.max == .number(2))
            #expect(params["speed"]?.values == ["slow", "fast"])
            #expect(
                params.summary
                    == #"freeze_max integer 0…10 = 2; ratio number 0.5…2.0 = 1.0; speed enum {"slow", "fast"} = "slow"; strict boolean = false"#
            )
        }
        let defaults = try RuleSet.load(RuleFixture.rulesFolder.path, proving: false)
        #expect(defaults.declaredParams.isEmpty)
        #expect(defaults.streaks.params.isEmpty)
    }

    @Test func eachCheckNamesTheFileLineFieldExpectedAndFound() throws {
        let cases: [(params: String, expected: String)] = [
            (
                #"  ["Freeze-Max"] = { type = "boolean", default = true },"#,
                #"modes.lua:3: params["Freeze-Max"]: a param's name is a lowercase letter then lowercase letters, digits or _ (at most 40 bytes), found "Freeze-Max""#
            ),
            (
                "  \(String(repeating: "a", count: 41)) = { type = \"boolean\", default = true },",
                #"modes.lua:3: params.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: a param's name is a lowercase letter then lowercase letters, digits or _ (at most 40 bytes), found "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa""#
            ),
            (
                #"  { type = "boolean", default = true },"#,
                "modes.lua:3: params[1]: a param's name is a lowercase letter then lowercase letters, digits or _ (at most 40 bytes), found 1"
            ),
            (
                #"  x = { type = "integer", mni = 0, max = 3, default = 1 },"#,
                "modes.lua:3: params.x.mni: unknown field (did you mean 'min'?)"
            ),
            (
                #"  x = { type = "int", min = 0, max = 3, default = 1 },"#,
                #"modes.lua:3: params.x.type: expected one of "integer", "number", "boolean", "enum", found string "int""#
            ),
            (
                #"  x = { type = "integer", max = 3, default = 1 },"#,
                "modes.lua:3: params.x.min: required field is missing"
            ),
            (
                #"  x = { type = "integer", min = 0, max = 3 },"#,
                "modes.lua:3: params.x.default: required field is missing"
            ),
            (
                #"  x = { type = "integer", min = "0", max = 3, default = 1 },"#,
                #"modes.lua:3: params.x.min: expected an integer, found string "0""#
            ),
            (
                #"  x = { type = "integer", min = 0, max = 3, default = 1.5 },"#,
                "modes.lua:3: params.x.default: expected an integer, found number 1.5"
            ),
            (
                "  x = { type = \"integer\", min = 0,\n    max = 2^60 // 1, default = 1 },",
                "modes.lua:4: params.x.max: an integer param's range is within ±2^53 (9007199254740992), found 1152921504606846976"
            ),
            (
                "  x = { type = \"integer\", min = 5,\n    max = 3, default = 4 },",
                "modes.lua:4: params.x.max: must be at least min (5), found 3"
            ),
            (
                "  x = { type = \"integer\", min = 0, max = 3,\n    default = 4 },",
                "modes.lua:4: params.x.default: must be within the range 0…3, found 4"
            ),
            (
                #"  x = { type = "number", min = 0, max = math.huge, default = 1 },"#,
                "modes.lua:3: params.x.max: expected a finite number, found number inf"
            ),
            (
                #"  x = { type = "boolean", min = 0, default = true },"#,
                "modes.lua:3: params.x.min: a boolean param has no range (only integer and number params have min and max)"
            ),
            (
                #"  x = { type = "boolean", default = "yes" },"#,
                #"modes.lua:3: params.x.default: expected a boolean, found string "yes""#
            ),
            (
                #"  x = { type = "enum", values = {}, default = "a" },"#,
                #"modes.lua:3: params.x.values: an enum lists 1 to 64 values, found 0"#
            ),
            (
                #"  x = { type = "enum", values = { "a", "b", "a" }, default = "a" },"#,
                #"modes.lua:3: params.x.values[3]: "a" is listed twice (also values[1]): enum values are unique"#
            ),
            (
                #"  x = { type = "enum", values = { "a", "" }, default = "a" },"#,
                #"modes.lua:3: params.x.values[2]: an enum value is a string of 1 to 40 bytes, found "" (0 bytes)"#
            ),
            (
                "  x = { type = \"enum\", values = { \"a\", \"b\" },\n    default = \"c\" },",
                #"modes.lua:4: params.x.default: must be one of "a", "b", found "c""#
            ),
            (
                #"  x = { type = "enum", values = { "a" }, default = "a", min = 1 },"#,
                "modes.lua:3: params.x.min: an enum param has no range: it lists its values"
            ),
            (
                "  x = { type = \"boolean\", default = true,\n    doc = string.rep(\"d\", 501) },",
                "modes.lua:4: params.x.doc: at most 500 bytes, found 501"
            ),
        ]
        for (params, expected) in cases {
            let found = try problems(params)
            #expect(found == [expected], "\(params) → \(found)")
        }
    }

    @Test func aFileDeclaresAtMost64Params() throws {
        let many = (1...65).map { "  p\($0) = { type = \"boolean\", default = false }," }.joined(separator: "\n")
        #expect(try problems(many) == ["modes.lua:2: params: at most 64 params per file, found 65"])
        let enumValues = (1...65).map { "\"v\($0)\"" }.joined(separator: ", ")
        #expect(
            try problems("  x = { type = \"enum\", values = { \(enumValues) }, default = \"v1\" },")
                == ["modes.lua:3: params.x.values: an enum lists 1 to 64 values, found 65"])
    }

    @Test func unknownKeysOutsideParamsStayErrors() throws {
        let dir = try Self.write([
            "child/extends": RuleFixture.rulesFolder.path,
            "child/modes.lua": "local M = base\nM.parmas = {}\nreturn M\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let error = try #require(throws: RuleSetError.self) { try RuleSet.load(dir.appendingPathComponent("child").path, proving: false) }
        #expect(error.problems.map(\.description) == ["modes.lua:2: parmas: unknown field (did you mean 'params'?)"])
    }

    // MARK: Extending folders

    @Test func anExtendingFolderChangesADefaultOrAddsAParamAndIsBlamedAtItsOwnLine() throws {
        let base = "local M = base\nM.params = {\n\(Self.declared)\n}\nreturn M\n"
        func load(_ child: String) throws -> Result<RuleSet, RuleSetError> {
            let dir = try Self.write([
                "base/extends": RuleFixture.rulesFolder.path, "base/streaks.lua": base,
                "child/extends": "../base", "child/streaks.lua": child,
            ])
            defer { try? FileManager.default.removeItem(at: dir) }
            do { return .success(try RuleSet.load(dir.appendingPathComponent("child").path, proving: false)) } catch let error
                as RuleSetError
            { return .failure(error) }
        }
        let changed = try load("local M = base\nM.params.freeze_max.default = 3\nreturn M\n").get()
        #expect(changed.streaks.params["freeze_max"]?.defaultValue == .integer(3))
        #expect(changed.streaks.params.defaults["speed"] == .string("slow"))

        let added = try load("local M = base\nM.params.grace = { type = \"integer\", min = 0, max = 3, default = 1 }\nreturn M\n").get()
        #expect(added.streaks.params.params.map(\.name) == ["freeze_max", "grace", "ratio", "speed", "strict"])

        guard case .failure(let wrong) = try load("local M = base\n\nM.params.freeze_max.default = 11\nreturn M\n") else {
            Issue.record("a default out of range was accepted"); return
        }
        #expect(wrong.problems.map(\.description) == ["streaks.lua:3: params.freeze_max.default: must be within the range 0…10, found 11"])

        guard case .failure(let misspelt) = try load("local M = base\nM.params.freeze_max.defualt = 3\nreturn M\n") else {
            Issue.record("a misspelt field was accepted"); return
        }
        #expect(
            misspelt.problems.map(\.description) == ["streaks.lua:2: params.freeze_max.defualt: unknown field (did you mean 'default'?)"])
    }

    // MARK: Resolution

    func declaredParams() throws -> RuleParams {
        try load(Self.declared).modes.params
    }

    @Test func resolutionFillsEveryDeclaredNameAndChecksTheValuesSet() throws {
        let params = try declaredParams()
        #expect(try params.resolve(nil) == params.defaults)
        #expect(params.defaults.description == #"freeze_max = 2, ratio = 1.0, speed = "slow", strict = false"#)

        let set = try params.resolve(ParamOverrides([("freeze_max", .integer(5)), ("speed", .string("fast")), ("ratio", .integer(2))]))
        #expect(set.description == #"freeze_max = 5, ratio = 2.0, speed = "fast", strict = false"#)
        // An integral number is an integer (JSON writes 3.0 for 3 at times).
        #expect(try params.resolve(ParamOverrides([("freeze_max", .number(3))]))["freeze_max"] == .integer(3))

        let failures: [(ParamOverrides, String)] = [
            (ParamOverrides([("freze_max", .integer(1))]), "INVALID_EVENT: params.freze_max: unknown param (did you mean 'freeze_max'?)"),
            (
                ParamOverrides([("colour", .integer(1))]),
                "INVALID_EVENT: params.colour: unknown param (declared: freeze_max, ratio, speed, strict)"
            ),
            (
                ParamOverrides([("freeze_max", .integer(12))]),
                "INVALID_EVENT: params.freeze_max: expected an integer between 0 and 10, found 12"
            ),
            (
                ParamOverrides([("freeze_max", .number(1.5))]),
                "INVALID_EVENT: params.freeze_max: expected an integer between 0 and 10, found 1.5"
            ),
            (
                ParamOverrides([("freeze_max", .string("2"))]),
                #"INVALID_EVENT: params.freeze_max: expected an integer between 0 and 10, found "2""#
            ),
            (ParamOverrides([("ratio", .number(2.5))]), "INVALID_EVENT: params.ratio: expected a number between 0.5 and 2.0, found 2.5"),
            (ParamOverrides([("strict", .integer(1))]), "INVALID_EVENT: params.strict: expected a boolean, found 1"),
            (ParamOverrides([("speed", .string("quick"))]), #"INVALID_EVENT: params.speed: expected one of "slow", "fast", found "quick""#),
        ]
        for (overrides, message) in failures {
            #expect(throws: EngineError.self) { try params.resolve(overrides) }
            do { _ = try params.resolve(overrides); Issue.record("accepted: \(message)") } catch { #expect(error.description == message) }
        }
        do { _ = try RuleParams().resolve(ParamOverrides([("x", .boolean(true))])); Issue.record("an undeclared param was accepted") } catch
        { #expect(error.description == "INVALID_EVENT: params.x: unknown param (the rule file declares no params)") }
    }

    @Test func valuesAreReadFromAnEventsJSON() throws {
        let params = try declaredParams()
        // A JSON line as a Lua value, through LuaDecoder.
        let line = LuaValue(json: try JSONLine.parse(#"{"freeze_max": 4, "strict": true, "speed": "fast", "ratio": 0.75}"#))
        let overrides = try LuaDecoder().decode(ParamOverrides.self, from: line)
        #expect(try params.resolve(overrides).description == #"freeze_max = 4, ratio = 0.75, speed = "fast", strict = true"#)
        #expect(throws: LuaError.self) {
            try LuaDecoder().decode(ParamOverrides.self, from: LuaValue(json: try JSONLine.parse(#"{"freeze_max": [1]}"#)))
        }
        do { _ = try LuaDecoder().decode(ParamOverrides.self, from: LuaValue(json: try JSONLine.parse(#"{"freeze_max": [1]}"#))) } catch let
            error
            as LuaError
        { #expect("\(error.path ?? ""): \(error.message)" == "freeze_max: expected a boolean, a number or a string, found a table") }

        // The project's JSON value type.
        let json = JSONValue.object([("freeze_max", .int(7)), ("ratio", .double(1.25))])
        #expect(try params.resolve(json: json).description == #"freeze_max = 7, ratio = 1.25, speed = "slow", strict = false"#)
        do { _ = try params.resolve(json: .object([("speed", .array([]))])); Issue.record("an array was accepted") } catch {
            #expect(error.description == "INVALID_EVENT: params.speed: expected a boolean, a number or a string, found an array")
        }
    }

    @Test func functionsReceiveTheResolvedParamsAsATable() throws {
        struct Task: LuaTableEncodable {
            static let nameKey = LuaKey("name")
            static let paramsKey = LuaKey("params")
            var params: ResolvedParams
            func encode(to t: inout LuaTableWriter) {
                t.set(Self.nameKey, "read")
                t.set(Self.paramsKey, params: params)
            }
        }
        let host = try LuaHost()
        let function = try #require(
            try host.load(
                """
                return function(task)
                  local p = task.params
                  return string.format("%s %d %s %s %s", task.name, p.freeze_max, tostring(p.ratio), tostring(p.strict), p.speed)
                end
                """, chunkName: "t.lua"
            ).first?.functionValue)
        let params = try declaredParams()
        #expect(
            try host.call(function, Pooled(Task(params: params.defaults)), returning: [LuaValue].self).first
                == .string("read 2 1.0 false slow"))
        let set = try params.resolve(ParamOverrides([("freeze_max", .integer(9)), ("strict", .boolean(true))]))
        #expect(try host.call(function, Pooled(Task(params: set)), returning: [LuaValue].self).first == .string("read 9 1.0 true slow"))
    }

    // MARK: Domain

    func params(_ declared: String) throws -> RuleParams { try load(declared).modes.params }

    @Test func theDomainTriesEveryValueOfSmallDomainsAndRepresentativeValuesOfLargeOnes() throws {
        let p = try params(
            """
              flag = { type = "boolean", default = true },
              small = { type = "integer", min = -2, max = 13, default = 0 },
              wide = { type = "integer", min = 0, max = 600, default = 7 },
              rate = { type = "number", min = 1, max = 3, default = 1.2 },
              mode = { type = "enum", values = { "b", "a", "c" }, default = "c" },
              huge = { type = "integer", min = -9007199254740992, max = 9007199254740992, default = 0 },
            """)
        func values(_ name: String) -> [String] { RuleParams.domainValues(of: p[name]!).map(\.text) }
        #expect(values("flag") == ["false", "true"])
        #expect(values("small") == (-2...13).map(String.init))
        #expect(values("wide") == ["0", "7", "100", "200", "300", "400", "500", "600"])
        #expect(values("rate") == ["1.0", "1.2", "1.5", "2.0", "2.5", "3.0"])
        #expect(values("mode") == ["b", "a", "c"].map { "\"\($0)\"" })
        // The widest range allowed: six evenly spaced values, exact.
        #expect(
            values("huge") == [
                "-9007199254740992", "-6004799503160662", "-3002399751580331", "0", "3002399751580330",
                "6004799503160661", "9007199254740992",
            ])
    }

    /// Every value a number range is proved at is finite and within it, however wide the range
    /// (up to the width the checks accept: max − min finite); a wider one is refused by the checks.
    @Test func theDomainOfAWideNumberRangeStaysFiniteAndWithinIt() throws {
        let ranges = [
            ("-6e307", "6e307"), ("-1.7976931348623157e308 / 2", "1.7976931348623157e308 / 2"),
            ("1.7976931348623157e308 / 4", "1.7976931348623157e308"), ("-1.7976931348623157e308", "-1.7976931348623157e308 / 8"),
            ("0", "1.7976931348623157e308"),
        ]
        let p = try params(
            ranges.enumerated().map { i, range in
                "  g\(i) = { type = \"number\", min = \(range.0), max = \(range.1), default = \(range.0) },"
            }.joined(separator: "\n"))
        for i in ranges.indices {
            let param = try #require(p["g\(i)"])
            let (lo, hi) = (try #require(param.min?.doubleValue), try #require(param.max?.doubleValue))
            let values = RuleParams.domainValues(of: param).compactMap(\.doubleValue)
            #expect(values.count == 5 && values.allSatisfy { $0.isFinite && $0 >= lo && $0 <= hi }, "\(lo)…\(hi): \(values)")
        }
        let found = try problems(#"  g = { type = "number", min = -1e308, max = 1e308, default = 0 },"#)
        #expect(
            found == [
                "modes.lua:3: params.g.max: the range -1e+308…1e+308 is too wide: max − min must be a finite number "
                    + "(at most 1.7976931348623157e+308), as validate proves the functions at points between them"
            ])
    }

    @Test func aSmallProductIsTriedInFull() throws {
        let p = try params(
            """
              flag = { type = "boolean", default = true },
              n = { type = "integer", min = 1, max = 3, default = 2 },
            """)
        let domain = p.domain()
        #expect(domain.total == 6)
        #expect(domain.combinations.count == 6)
        #expect(Set(domain.combinations).count == 6)
        #expect(domain.combinations.first == p.defaults)
        #expect(!domain.isSampled)
        #expect(domain.unproved == nil)
        #expect(RuleParams().domain().combinations == [ResolvedParams.empty])
    }

    @Test func pastTheCapTheDomainIsSampledDeterministicallyAndSaysWhatItDidNotProve() throws {
        let p = try params(
            """
              a = { type = "integer", min = 0, max = 9, default = 3 },
              b = { type = "integer", min = 0, max = 9, default = 4 },
              c = { type = "enum", values = { "x", "y", "z" }, default = "z" },
            """)
        let domain = p.domain()
        #expect(domain.total == 300)
        #expect(domain.combinations.count == 256)
        #expect(Set(domain.combinations).count == 256)
        #expect(domain.combinations.first == p.defaults)
        // Every value of every param is tried.
        for param in p.params {
            let tried = Set(domain.combinations.compactMap { $0[param.name] })
            #expect(tried == Set(RuleParams.domainValues(of: param)), "\(param.name)")
        }
        #expect(domain.combinations == p.domain().combinations)
        #expect(domain.unproved == "every combination of a, b, c (300 of them; 256 tried, sampled deterministically)")
        let small = p.domain(cap: 10)
        #expect(small.combinations.count == 10)
        #expect(small.combinations == Array(domain.combinations.prefix(10)))
    }

    /// A range tried at some of its values only (an integer range of more than 16 values, a number
    /// range) is named with the values tried, in full product or sampled alike.
    @Test func aRangeTriedAtSomeValuesSaysWhichOnes() throws {
        let p = try params(
            """
              grace = { type = "integer", min = 0, max = 100, default = 50 },
              speed = { type = "number", min = 0, max = 2, default = 1 },
              n = { type = "integer", min = 1, max = 4, default = 2 },
              one = { type = "number", min = 1, max = 1, default = 1 },
            """)
        let domain = p.domain()
        #expect(!domain.isSampled)
        #expect(
            domain.unproved == "grace other than 0, 16, 33, 50, 66, 83, 100, speed other than 0.0, 0.5, 1.0, 1.5, 2.0",
            "\(domain.unproved ?? "nil")")
    }

    /// A proof over a sampled domain says so in `validate`'s "not proved for …" lines, after what the
    /// proof itself leaves out: the streak proof and the price proof alike. It stays within the
    /// validation budget (the full domain at 256 combinations would exhaust it).
    @Test(arguments: ["streaks.lua", "pricing.lua"])
    func aProofOverASampledDomainSaysWhatItDidNotProve(file: String) throws {
        let dir = try folder(
            """
              a = { type = "integer", min = 0, max = 9, default = 3 },
              b = { type = "integer", min = 0, max = 9, default = 4 },
              c = { type = "enum", values = { "x", "y", "z" }, default = "z" },
            """, in: file)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try RuleSet.load(dir.appendingPathComponent("child").path)
        let name = file == "streaks.lua" ? "habit.streak" : "price"
        let sampled = "every combination of a, b, c (300 of them; 256 tried, sampled deterministically)"
        let lines = rules.unproved.filter { $0.hasPrefix("\(name): not proved for ") }
        #expect(lines.count == 1 && lines[0].hasSuffix(", and " + sampled), "\(rules.unproved)")
        #expect(lines.first?.contains(", and params other than the defaults ") == true, "\(rules.unproved)")
    }
}
