import Foundation
import Testing

/// The README and the pages of docs/ link to each other: every `](file)` names a file of the
/// repository and every `](#anchor)` or `](file#anchor)` a heading of that page, as GitHub
/// makes anchors of headings.
@Suite struct DocsLinkTests {
    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: CLI.packageRoot.appendingPathComponent("docs").path)) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }()

    @Test func theReadmeLinksToEveryPageOfDocs() throws {
        let readme = try text(of: "README.md")
        #expect(Self.pages.count > 10, "\(Self.pages)")
        for page in Self.pages.dropFirst() {
            #expect(readme.contains("](\(page))"), "README.md does not link to \(page)")
        }
    }

    @Test(arguments: pages) func everyLinkResolves(page: String) throws {
        let links = try Self.links(in: text(of: page))
        #expect(!links.isEmpty || page != "README.md")
        let folder = page.split(separator: "/").dropLast().map(String.init)
        for link in links where !link.contains("://") && !link.hasPrefix("mailto:") {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? page : Self.resolve(parts[0], in: folder)
            let url = CLI.packageRoot.appendingPathComponent(file)
            #expect(FileManager.default.fileExists(atPath: url.path), "\(page): \(link): no file \(file)")
            if parts.count == 2, FileManager.default.fileExists(atPath: url.path) {
                let anchors = Self.anchors(in: try text(of: file))
                #expect(anchors.contains(parts[1]), "\(page): \(link): no heading with the anchor #\(parts[1]) in \(file)")
            }
        }
    }

    /// The docs say what is true now: development history (issue and session numbers, commit
    /// hashes) is CHANGELOG.md's, never a page's. A hash is 7 to 40 hexadecimal digits with a
    /// letter and a digit, not part of a longer word or of an id written with dashes (`82135e22-…`),
    /// nor a JSON string (a digest an example prints).
    @Test(arguments: pages) func noPageCitesAnIssueASessionOrACommit(page: String) throws {
        let found = Self.history(in: try text(of: page))
        #expect(found.isEmpty, "\(page) cites development history (it belongs in CHANGELOG.md): \(found)")
    }

    @Test func historyIsRecognised() {
        #expect(Self.history(in: "as issue 38 found; session 23 measured; before this change (f1d929e); the floor of issue\n20") == ["issue 38", "session 23", "issue\n20", "f1d929e"])
        #expect(Self.history(in: #"attempt 82135e22-…, seed 18446744073709551615, grep -E 'deadbeef'x, a #23 line, {"d":"5b3cd5862678fe4b"}"#).isEmpty)
    }

    static func history(in text: String) -> [String] {
        let issue = /(?i)\b(?:issue|session)s?[ \n]#?\d+\b/
        var found = text.matches(of: issue).map { String(text[$0.range]).lowercased() }
        for match in text.matches(of: /[\w-]+/) {
            let token = text[match.range]
            // A digest in an example's JSON (`"inputs_digest":"5b3cd5862678fe4b"`) is output, not history.
            let quoted = match.range.lowerBound > text.startIndex && text[text.index(before: match.range.lowerBound)] == "\""
            if !quoted, token.wholeMatch(of: /[0-9a-f]{7,40}/) != nil, token.contains(where: \.isLetter), token.contains(where: \.isNumber) {
                found.append(String(token))
            }
        }
        return found
    }

    func text(of page: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent(page), encoding: .utf8)
    }

    /// `target` relative to the folder `folder` (components from the package root), `..` resolved.
    static func resolve(_ target: String, in folder: [String]) -> String {
        var path = folder
        for component in target.split(separator: "/") {
            if component == ".." { if !path.isEmpty { path.removeLast() } } else if component != "." { path.append(String(component)) }
        }
        return path.joined(separator: "/")
    }

    /// The targets of the page's links, outside fenced code blocks and code spans.
    static func links(in text: String) -> [String] {
        var links: [String] = []
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); continue }
            if fenced { continue }
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                links.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return links
    }

    /// GitHub's anchors of the page's headings: lower case, punctuation dropped, spaces as hyphens.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var fenced = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("```") { fenced.toggle(); continue }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let kept = title.lowercased().unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
            }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }
}
