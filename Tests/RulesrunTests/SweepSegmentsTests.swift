import Foundation
import Testing

/// `rulesrun sweep --segments`: each variant's metrics for each persona's users alone, with their
/// intervals and differences to the same users under the base, in the table, CSV, JSON and page.
@Suite struct SweepSegmentsTests {
    /// A mixed cohort: steady users (Pressure, habits, MIGA, Earned for 60 % of them) and focus users
    /// (Earned and habits only), under a price of Earned (base 10 credits).
    let args = [
        "sweep", "5d", "--users", "40", "--seed", "1", "--persona", "steady:1,focus-user:1", "--set",
        "pricing.credit_costs[1].credits=5,10",
        "--metric", "YES rate", "--metric", "credits spent per user-day",
    ]

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(300))")
    }

    func number(_ value: Any?) throws -> Double { try #require((value as? NSNumber)?.doubleValue, "\(String(describing: value))") }

    @Test func eachVariantHasEachPersonasMetricsWithIntervalsAndDifferences() throws {
        let result = try CLI.run(args + ["--segments", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try object(result.stdout)
        #expect((report["sweep"] as? [String: Any])?["segments"] as? Bool == true)
        let rows = try #require(report["variants"] as? [[String: Any]])
        #expect(rows.map { $0["base"] as? Bool } == [false, true])
        var users: [[Int]] = []
        for row in rows {
            let segments = try #require(row["segments"] as? [[String: Any]])
            #expect(segments.map { $0["persona"] as? String } == ["steady", "focus-user"])
            users.append(segments.compactMap { $0["users"] as? Int })
            let steady = try #require(segments[0]["metrics"] as? [String: Any])
            let focus = try #require(segments[1]["metrics"] as? [String: Any])
            #expect(Set(steady.keys) == ["YES rate", "credits spent per user-day"])
            #expect(Array(focus.keys) == ["credits spent per user-day"], "focus users do not use Pressure")
            // Focus users have no Pressure: the cohort's YES rate is steady's, and so is its interval
            // (a group whose users are all focus users has no YES rate, not a rate of 0).
            let cohort = try #require(row["intervals"] as? [String: [String: Any]])["YES rate"]
            let own = try #require(segments[0]["intervals"] as? [String: [String: Any]])["YES rate"]
            #expect(try number(steady["YES rate"]) == (try number((row["metrics"] as? [String: Any])?["YES rate"])))
            #expect(try number(own?["low"]) == (try number(cohort?["low"])) && (try number(own?["high"])) == (try number(cohort?["high"])))
        }
        #expect(users[0] == users[1] && users[0].reduce(0, +) == 40 && users[0].allSatisfy { $0 > 0 })
        // Each persona's difference to the base: its value under the variant minus its value under the base.
        let moved = try #require(rows[0]["segments"] as? [[String: Any]]), base = try #require(rows[1]["segments"] as? [[String: Any]])
        #expect(base.allSatisfy { $0["vs_base"] == nil })
        for (m, b) in zip(moved, base) {
            let vs = try #require(m["vs_base"] as? [String: [String: Any]])
            let values = try #require(m["metrics"] as? [String: Any]), baseValues = try #require(b["metrics"] as? [String: Any])
            #expect(Set(vs.keys) == Set(values.keys))
            for (name, d) in vs {
                let delta = try number(d["delta"]), low = try number(d["low"]), high = try number(d["high"])
                #expect(abs(delta - (try number(values[name]) - (try number(baseValues[name])))) < 1e-12)
                #expect(low <= delta && delta <= high)
                #expect(d["significant"] as? Bool == (low > 0 || high < 0))
            }
        }
        // A cheaper unlock moves the focus users' spending (significantly, on 18 users), not steady users' YES rate.
        let focusCredits = try #require((moved[1]["vs_base"] as? [String: [String: Any]])?["credits spent per user-day"])
        #expect(try number(focusCredits["delta"]) < 0 && focusCredits["significant"] as? Bool == true, "\(focusCredits)")
        let steadyYes = try #require((moved[0]["vs_base"] as? [String: [String: Any]])?["YES rate"])
        #expect(try number(steadyYes["delta"]) == 0)

        // The base's row is `simulate --segments`: the same users, values and intervals (4 decimals there).
        let simulate = try CLI.run(
            [
                "simulate", "5d", "--users", "40", "--seed", "1", "--persona", "steady:1,focus-user:1", "--no-db", "--segments", "--format",
                "json",
            ])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let personas = try #require((try object(simulate.stdout)["segments"] as? [String: Any])?["personas"] as? [[String: Any]])
        for (p, persona) in personas.enumerated() {
            #expect(persona["users"] as? Int == users[1][p])
            let simulated = try #require(persona["metrics"] as? [String: [String: Any]])
            let values = try #require(base[p]["metrics"] as? [String: Any])
            let intervals = try #require(base[p]["intervals"] as? [String: [String: Any]])
            for (name, id) in [("YES rate", "yes_rate"), ("credits spent per user-day", "credits_spent_per_user_day")] {
                guard let value = values[name] else {
                    #expect(simulated[id] == nil)
                    continue
                }
                let s = try #require(simulated[id], "\(id)")
                #expect(abs(try number(value) - (try number(s["value"]))) <= 0.00005, "\(name)")
                #expect(abs(try number(intervals[name]?["low"]) - (try number(s["low"]))) <= 0.00005, "\(name)")
                #expect(abs(try number(intervals[name]?["high"]) - (try number(s["high"]))) <= 0.00005, "\(name)")
            }
        }

        // Without --segments: no segments anywhere, the cohort's figures the same.
        let plain = try CLI.run(args + ["--format", "json"])
        #expect(plain.status == 0 && !plain.stdout.contains("segments"), "\(plain.stderr)")
        let plainRows = try #require(try object(plain.stdout)["variants"] as? [[String: Any]])
        for (p, r) in zip(plainRows, rows) {
            #expect(
                NSDictionary(dictionary: try #require(p["metrics"] as? [String: Any]))
                    == NSDictionary(dictionary: r["metrics"] as! [String: Any]))
        }
    }

    @Test func withReplicasEachPersonasFigureIsItsMeanOverTheReplicas() throws {
        let result = try CLI.run(args + ["--segments", "--replicas", "3", "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try #require(try object(result.stdout)["variants"] as? [[String: Any]])
        let base = try #require(rows[1]["segments"] as? [[String: Any]])
        // `simulate --replicas 3 --segments`: the same cohorts.
        let simulate = try CLI.run(
            [
                "simulate", "5d", "--users", "40", "--seed", "1", "--persona", "steady:1,focus-user:1", "--no-db", "--segments",
                "--replicas", "3",
            ]
                + ["--format", "json"])
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let segments = try #require(try object(simulate.stdout)["segments"] as? [String: Any])
        #expect((segments["method"] as? String)?.contains("3 replicas") == true)
        let personas = try #require(segments["personas"] as? [[String: Any]])
        for p in 0..<2 {
            let simulated = try #require((personas[p]["metrics"] as? [String: [String: Any]])?["credits_spent_per_user_day"])
            let value = try number((base[p]["metrics"] as? [String: Any])?["credits spent per user-day"])
            let interval = try #require((base[p]["intervals"] as? [String: [String: Any]])?["credits spent per user-day"])
            #expect(abs(value - (try number(simulated["value"]))) <= 0.00005)
            #expect(abs(try number(interval["low"]) - (try number(simulated["low"]))) <= 0.00005)
            #expect(abs(try number(interval["high"]) - (try number(simulated["high"]))) <= 0.00005)
        }
    }

    @Test func theTableCSVAndPageShowEachPersona() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let page = dir.appendingPathComponent("sweep.html").path
        let table = try CLI.run(args + ["--segments", "--html", page])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        // Under each variant: a line per persona, then its metrics, indented; focus users have no YES rate.
        let heads = lines.indices.filter { lines[$0].contains("by persona: focus-user (") }
        #expect(heads.count == 2, "\(table.stdout)")
        for head in heads {
            #expect(lines[head + 1].contains("  credits spent per user-day  "), "\(lines[head + 1])")
            #expect(
                head + 2 == lines.count || !lines[head + 2].hasPrefix(String(repeating: " ", count: 2 + 31 + 2 + 2)), "\(lines[head + 2])")
        }
        let steady = try #require(lines.firstIndex { $0.contains("by persona: steady (") })
        #expect(lines[steady + 1].contains("    YES rate  ") && lines[steady + 2].contains("    credits spent per user-day  "))
        // Under the metric column: the knob's column blank ("pricing.credit_costs[1].credits" is 31 wide).
        #expect(lines[steady].hasPrefix(String(repeating: " ", count: 2 + 31 + 2) + "by persona: steady ("), "\(lines[steady])")

        let csv = try CLI.run(args + ["--segments", "--format", "csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let csvLines = csv.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        let header = csvLines[0].map(String.init)
        #expect(header.count == 1 + 2 * 6 * 3 + 1 && header.last == "refused")
        let focusYes = try #require(header.firstIndex(of: "focus-user: YES rate"))
        #expect(header.contains("steady: credits spent per user-day delta high"))
        #expect(csvLines[1][focusYes].isEmpty && csvLines[1].count == header.count)
        let steadyYes = try #require(header.firstIndex(of: "steady: YES rate"))
        #expect(!csvLines[1][steadyYes].isEmpty)

        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<h2>Each variant against the base, by persona</h2>"), "\(html.prefix(2000))")
        #expect(html.contains("<th>persona</th><th>metric</th>"))
        #expect(html.contains("<td>focus-user (") && html.contains("\"segments\":[{\"persona\":\"steady\""))
    }

    /// `--resume --segments` keeps a finished variant with its personas' figures; a report written
    /// without `--segments` is another sweep.
    @Test func resumeKeepsEachPersonasFigures() throws {
        let dir = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = dir.appendingPathComponent("full.json").path, out = dir.appendingPathComponent("out.json").path
        let whole = try CLI.run(args + ["--segments", "--format", "json", "--out", full])
        #expect(whole.status == 0, "\(whole.stderr)")
        let text = try String(contentsOfFile: full, encoding: .utf8)
        let cut = try #require(text.range(of: "},{\"knobs\"")).lowerBound
        try (String(text[...cut]) + "]}\n").write(toFile: out, atomically: true, encoding: .utf8)
        let resumed = try CLI.run(args + ["--segments", "--format", "json", "--out", out, "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("sweep: resuming: 1 of 2 variants kept from \(out)"), "\(resumed.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == text)

        let plain = dir.appendingPathComponent("plain.json").path
        #expect(try CLI.run(args + ["--format", "json", "--out", plain]).status == 0)
        let other = try CLI.run(args + ["--segments", "--format", "json", "--out", plain, "--resume"])
        #expect(other.status == 2)
        #expect(other.stderr.contains("is the report of another sweep: its segments is missing, this one's true"), "\(other.stderr)")
    }
}
