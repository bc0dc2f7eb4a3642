import Foundation
import RulesEngine
import RulesSim
import Testing

/// The differential half of `rulesrun compare`, through the library: differences by kind, shrunk,
/// and confirmed by replaying them through the engine.
@Suite struct RuleComparisonTests {
    func comparison(_ b: URL, _ options: CompareOptions = CompareOptions()) throws -> RuleComparison {
        try RuleComparison(folderA: Repository.rules.path, folderB: b.path, options: options)
    }

    @Test func graduatedRecoveryIsFoundAndShrunkToAFewEvents() throws {
        let result = try comparison(Repository.graduatedRecovery).run()
        #expect(result.exitCode == 1)
        let tier = try #require(result.findings.first { $0.kind == .field(.currentTier) })
        #expect(tier.histories > 0)
        #expect(tier.script.eventsBeyondSetup <= 5, "\(tier.script.text)")
        #expect(tier.reproduced)
        // The minimal history: two misses reach tier 2, then two YES days; A drops to 0, B to 1.
        let index = try #require(tier.firstEvent)
        #expect(tier.script.lines[index].contains("\"check_in\", \"result\": \"YES\""))
        let a = try #require(tier.a), b = try #require(tier.b)
        #expect(a.before.first { $0.0 == "current_tier" }?.1 == .int(2) && a.after.first { $0.0 == "current_tier" }?.1 == .int(0))
        #expect(b.before.first { $0.0 == "current_tier" }?.1 == .int(2) && b.after.first { $0.0 == "current_tier" }?.1 == .int(1))
        // Every finding is reproduced by the engine.
        #expect(result.findings.allSatisfy { $0.reproduced }, "\(result.text)")
    }

    /// `compare`'s progress bar is fed by every stage: each history walked, each kind shrunk, each
    /// Earned history, each user simulated under A and B (in order, ending at the stage's total).
    @Test func everyStageReportsItsProgress() throws {
        var reports: [String: [Int]] = [:]
        func record(_ stage: String, _ done: Int, _ total: Int) {
            reports[stage, default: []].append(done)
            #expect(done <= total, "\(stage): \(done) of \(total)")
        }
        let result = try comparison(Repository.graduatedRecovery, CompareOptions(runs: 40, days: 10)).run(progress: record)
        #expect(reports["histories"] == Array(1...40))
        #expect(!result.findings.isEmpty && reports["differences shrunk"] == Array(1...result.findings.count))
        _ = try EconomyComparison(
            a: try RuleSet.load(Repository.rules.path), b: try RuleSet.load(Repository.rules.path), runs: 6, days: 2, seed: 1
        )
        .run { record("economy", $0, $1) }
        #expect(reports["economy"] == Array(1...6))
        _ = try PopulationComparison.run(
            folderA: Repository.rules.path, folderB: Repository.graduatedRecovery.path, users: 5, days: 2,
            seed: 1, mix: .standard, personaFolders: [Repository.root.appendingPathComponent("examples/personas").path],
            progress: record)
        #expect(reports["A"]?.last == 5 && reports["B"]?.last == 5, "\(reports)")
    }

    @Test func aRuleSetHasNoDifferenceWithItself() throws {
        let result = try comparison(Repository.rules, CompareOptions(runs: 300)).run()
        #expect(result.findings.isEmpty && result.differing == 0 && result.exitCode == 0)
        #expect(result.json["identical"] == .bool(true))
        #expect(result.json["population"] == nil)
    }

    @Test func missNeverLowersTierDiffersOnlyAfterAMissAtTierTwoOrThree() throws {
        let result = try comparison(Repository.missNeverLowersTier).run()
        let tier = try #require(result.findings.first { $0.kind == .field(.currentTier) })
        #expect(tier.reproduced)
        let a = try #require(tier.a), b = try #require(tier.b)
        let aTier = Int(a.after.first { $0.0 == "current_tier" }!.1.description)!,
            bTier = Int(b.after.first { $0.0 == "current_tier" }!.1.description)!
        #expect(bTier > aTier && aTier == 1, "\(result.text)")
    }

    @Test func ignoredFieldsAndExpectations() throws {
        let ignored = try comparison(Repository.graduatedRecovery, CompareOptions(runs: 300, ignored: [.currentTier])).run()
        #expect(!ignored.findings.contains { $0.kind == .field(.currentTier) } && !ignored.findings.isEmpty)
        let expectation = try Expectation("B.current_tier >= A.current_tier")
        let result = try comparison(Repository.graduatedRecovery, CompareOptions(runs: 300, expectations: [expectation])).run()
        #expect(result.brokenExpectations.isEmpty && result.exitCode == 0, "\(result.text)")
        let reversed = try comparison(
            Repository.graduatedRecovery,
            CompareOptions(runs: 300, expectations: [try Expectation("B.current_tier < A.current_tier")])
        ).run()
        let broken = try #require(reversed.brokenExpectations.first)
        #expect(broken.reproduced && reversed.exitCode == 1)
    }

    @Test func expectationsAreParsedStrictly() throws {
        let e = try Expectation(" B.current_tier<=A.current_tier ")
        #expect(e.description == "B.current_tier <= A.current_tier")
        #expect(throws: ExpectationError.self) { try Expectation("B.current_tier A.current_tier") }
        #expect(throws: ExpectationError.self) { try Expectation("C.current_tier <= A.current_tier") }
        #expect(throws: ExpectationError.self) { try Expectation("B.reminders <= A.reminders") }
    }

    /// Every character of an expectation is understood, or it is refused at the first one that is
    /// not (a leading ".", a third operand, text after the second field), for either kind
    /// (`Expectation`, `LineExpectation`); a long one is refused by its length and echoed cut.
    @Test func anExpectationIsRefusedAtTheFirstCharacterNotUnderstood() throws {
        func message(_ text: String) -> String? {
            do {
                if try LineExpectation(text) == nil { _ = try Expectation(text) }
                return nil
            } catch {
                return error.message
            }
        }
        let cases: [(text: String, message: String)] = [
            (
                ".B.current_tier <= A.current_tier",
                #"character 1 is not understood: expected A or B, the side of the left field (A.FIELD or B.FIELD), found ".B.current_tier <= A…""#
            ),
            (
                "B.current_tier <= .A.current_tier",
                #"character 19 is not understood: expected A or B, the side of the right field (A.FIELD or B.FIELD), found ".A.current_tier""#
            ),
            (
                "B.current_tier <= A.current_tier junk",
                #"character 34 is not understood: expected the end of the expectation after A.current_tier, found "junk""#
            ),
            (
                "B.current_tier <= A.current_tier <= B.current_tier",
                #"character 34 is not understood: expected the end of the expectation after A.current_tier, found "<= B.current_tier""#
            ),
            (
                "B.cost_credits <= A.cost_credits; rm -rf",
                #"character 33 is not understood: expected the end of the expectation after A.cost_credits, found "; rm -rf""#
            ),
            (
                "B.current_tier =< A.current_tier",
                #"character 16 is not understood: expected a relation (one of <=, <, >=, >, ==, !=) after B.current_tier, found "=< A.current_tier""#
            ),
            (
                "B current_tier <= A.current_tier",
                #"character 2 is not understood: expected "." after B, found " current_tier <= A.c…""#
            ),
            (
                "B. <= A.current_tier",
                #"character 3 is not understood: expected a field's name after "B.", found " <= A.current_tier""#
            ),
            (
                "B.current_tier <=",
                #"character 18 is not understood: expected A or B, the side of the right field (A.FIELD or B.FIELD), found the end"#
            ),
            (
                "B.current_tier <= A.current_tier\u{1B}[2J",
                #"character 33 is not understood: expected the end of the expectation after A.current_tier, found "\u{1B}[2J""#
            ),
        ]
        for (text, expected) in cases {
            #expect(message(text) == expected, "\(text)")
        }
        // What was accepted stays accepted: spaces anywhere between the parts, a and b for A and B.
        #expect(try Expectation("  b.current_tier>=a.current_tier\t").description == "B.current_tier >= A.current_tier")
        #expect(try LineExpectation("B.cost_credits<=A.cost_credits")?.description == "B.cost_credits <= A.cost_credits")

        let long = "B.current_tier <= A.current_tier" + String(repeating: " x", count: 50_000)
        #expect(message(long) == "an expectation is at most 200 characters, found 100032")
        let shown = try #require(#expect(throws: ExpectationError.self) { try Expectation(long) }).description
        #expect(shown.count < 200 && shown.hasPrefix(#"--expect "B.current_tier <= A.current_tier x x"#), "\(shown)")
    }

    @Test func anInvalidFolderIsAnInputError() throws {
        #expect(throws: CompareInputError.self) {
            try RuleComparison(folderA: Repository.rules.path, folderB: "/nonexistent/rules", options: CompareOptions())
        }
    }

    /// The walk on several threads finds what it finds on one: the same counts, the same first
    /// history of each kind, the same stopped histories (chunks merged in case order).
    @Test func theWalkIsTheSameWhateverTheThreads() throws {
        func walk(_ jobs: Int) throws -> (RuleComparison.Walked, Int) {
            let options = CompareOptions(
                runs: 130, days: 20, expectations: [try Expectation("B.current_tier <= A.current_tier")], jobs: jobs)
            let comparison = try comparison(Repository.graduatedRecovery, options)
            var progress: [Int] = []
            let walked = try comparison.walkAll { done, runs in progress.append(done) }
            #expect(progress == Array(1...130))
            return (walked, comparison.walkThreads)
        }
        func summary(_ w: RuleComparison.Walked) -> String {
            let kinds = w.counts.map { "\($0.key): \($0.value.count) from \($0.value.first)" }.sorted()
            return "\(w.histories) \(w.differing) \(w.stoppedA) \(w.stoppedB) \(kinds)"
        }
        let (one, oneThread) = try walk(1)
        #expect(oneThread == 1 && one.differing > 0 && one.counts.count >= 3, "\(summary(one))")
        for jobs in [2, 3] {
            let (many, threads) = try walk(jobs)
            #expect(threads == jobs)
            #expect(summary(many) == summary(one))
        }
    }

    /// `HistoryField.differs`, which the walk asks, says what comparing the fields' values says.
    @Test func aFieldDiffersExactlyWhenItsValueDoes() throws {
        let a = try RuleSet.load(Repository.rules.path), b = try RuleSet.load(Repository.graduatedRecovery.path)
        let generator = HistoryGenerator(seed: 7, days: 20...20)
        var differing: Set<HistoryField> = []
        for k in 0..<60 {
            let history = generator.history(case: k)
            var x = HistoryWalker(a, from: history), y = HistoryWalker(b, from: history)
            var previous: HistoryWalker.Outcome?
            for day in history.days {
                guard let p = try? x.step(day), let q = try? y.step(day) else { break }
                // B's day, and A's day before (another day: with or without a commitment).
                for other in [q, previous ?? q] {
                    for field in HistoryField.allCases {
                        let differs = field.differs(p, other)
                        #expect(differs == (field.value(in: .success(p)) != field.value(in: .success(other))), "\(field)")
                        if differs { differing.insert(field) }
                    }
                }
                previous = p
            }
        }
        #expect(
            differing.isSuperset(of: [.currentTier, .consecutiveSuccesses, .reminders, .persistentBadge, .currentStreak]), "\(differing)")
    }
}
