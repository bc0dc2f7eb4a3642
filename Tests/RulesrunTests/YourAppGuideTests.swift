import Foundation
import Testing

/// docs/your-app.md, followed as a new team would: each `$ ` command of its shell blocks, run in
/// order by `/bin/sh` (the built `rulesrun` first on the PATH) in a fresh temporary folder outside
/// the checkout (no ./rules, no examples/, a cache folder of its own), must exit 0 and print every
/// line the page shows under it (a line with `…` stands for the parts around it, in that order).
/// A command ending in a here-document (`cat > f <<'EOF'`) takes the lines up to its delimiter.
/// A command whose shown lines include `exit N: …` must exit N. The tests of `rulesrun test` may
/// take 10 minutes each (`--test-timeout 600`, added), not 60 s: the binary is a debug build, on a
/// machine that may be running other tests. The block of the install step (fenced ```` ```sh install ````) is not run: the test has the
/// built binary. Each step's time is printed, not checked.
@Suite struct YourAppGuideTests {
    /// A command of the page and the lines it shows under it.
    struct Step {
        var command: String
        var shown: [String]
    }

    /// The steps of `markdown`: the commands of its shell blocks (not those of an `install` block).
    static func steps(in markdown: String) -> [Step] {
        var steps: [Step] = []
        var inBlock = false, running = false
        var hereDocument: String?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                let info = line.dropFirst(3).split(separator: " ").map(String.init)
                running = !inBlock && ["sh", "console", "shell"].contains(info.first ?? "") && !info.contains("install")
                inBlock.toggle()
                continue
            }
            guard inBlock, running else { continue }
            if let delimiter = hereDocument {
                steps[steps.count - 1].command += "\n" + line
                if line == delimiter { hereDocument = nil }
            } else if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), shown: []))
                if let match = line.firstMatch(of: /<<'?(\w+)'?$/) { hereDocument = String(match.1) }
            } else if !steps.isEmpty, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                steps[steps.count - 1].shown.append(line)
            }
        }
        return steps
    }

    /// Whether `output` has a line showing `shown`: the whole of it, or, when it has `…`, its parts
    /// in order.
    static func shows(_ output: String, _ shown: String) -> Bool {
        let parts = shown.components(separatedBy: "…").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !parts.isEmpty else { return true }
        return output.split(separator: "\n").contains { line in
            var rest = Substring(line)
            for part in parts {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
    }

    @Test func theStepsAreFoundAndMatched() {
        let page = """
            ```sh install
            $ swift build -c release
            ```
            text
            ```sh
            $ rulesrun new myapp
            wrote myapp/: …
            $ rulesrun validate myapp
            $ cat > e.jsonl <<'EOF'
            {"a": 1}
            EOF
            $ rulesrun replay e.jsonl
            {"line":1…}
            ```
            """
        let steps = Self.steps(in: page)
        #expect(
            steps.map(\.command) == [
                "rulesrun new myapp", "rulesrun validate myapp", "cat > e.jsonl <<'EOF'\n{\"a\": 1}\nEOF", "rulesrun replay e.jsonl",
            ])
        #expect(steps[3].shown == [#"{"line":1…}"#])
        #expect(steps[0].shown == ["wrote myapp/: …"])
        #expect(Self.shows("a\nwrote myapp/: extends, pricing.lua\n", "wrote myapp/: … pricing.lua"))
        #expect(!Self.shows("wrote myapp/: extends", "wrote myapp/: … pricing.lua"))
        #expect(!Self.shows("pricing.lua … wrote", "wrote … pricing.lua"))
    }

    @Test func theGuideRunsOutsideTheCheckout() throws {
        let page = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/your-app.md"), encoding: .utf8)
        let steps = Self.steps(in: page)
        #expect(steps.count >= 8, "\(steps.map(\.command))")
        let folder = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!folder.path.hasPrefix(CLI.packageRoot.path))
        // Its own cache: the first command writes the built-in defaults out, as on a new machine.
        let environment = ["XDG_CACHE_HOME": folder.appendingPathComponent(".cache").path]
        var total = 0.0
        print("docs/your-app.md, step by step (in \(folder.path)):")
        for (index, step) in steps.enumerated() {
            let start = Date()
            let command = step.command.hasPrefix("rulesrun test ") ? step.command + " --test-timeout 600 --timeout 1800" : step.command
            let result = try PastedCommand.run(command, in: folder, environment: environment)
            let seconds = Date().timeIntervalSince(start)
            total += seconds
            print(String(format: "  %2d. %6.2f s  $ ", index + 1, seconds) + (step.command.split(separator: "\n").first.map(String.init) ?? ""))
            let output = result.stdout + result.stderr
            let status = step.shown.lazy.compactMap { $0.firstMatch(of: /^exit (\d+):/).flatMap { Int32($0.1) } }.first ?? 0
            #expect(result.status == status, "$ \(step.command) exited \(result.status), not \(status):\n\(output)")
            for line in step.shown {
                #expect(Self.shows(output, line), "$ \(step.command): the page shows '\(line)', not printed:\n\(output)")
            }
        }
        print(String(format: "  total %.2f s", total))
    }
}
