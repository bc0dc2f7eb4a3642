// An app on rulesrun's engine, through the package's public API only (README.md): it runs its rules
// from signed bundles, polls a URL for new ones, and applies its users' events.
//
//     app-example --url URL --public-key FILE [--public-key FILE …] --folder DIR --db FILE
//                 [--initial FILE] [--probation-events N] [--probation-failures N]
//
// Standard input plays the app's life, one line at a time, and each line gets one JSON line:
//   poll      fetch the bundle at the URL and activate it when it is new: what happened and the status
//   status    the status: active revision, last good one, refused revisions, last error
//   anything else is an event, as replay reads them ({"at": …, "user": …, "type": …}):
//             {"ok": true, "decisions": …} or {"ok": false, "code": …, "message": …}
import Foundation
import RulesEngine
import RulesModel
import RulesStore

let usage = """
    usage: app-example --url URL --public-key FILE [--public-key FILE …] --folder DIR --db FILE
                       [--initial FILE] [--probation-events N] [--probation-failures N]
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("app-example: \(message)\n".utf8))
    exit(2)
}

/// The command line: each option once, but --public-key.
struct Options {
    static let names = ["--url", "--public-key", "--folder", "--db", "--initial", "--probation-events", "--probation-failures"]
    var values: [String: [String]] = [:]

    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard Self.names.contains(name), let value = rest.popFirst() else { fail("unexpected \(name)\n\(usage)") }
            guard values[name] == nil || name == "--public-key" else { fail("\(name) is given twice") }
            values[name, default: []].append(value)
        }
    }

    func required(_ name: String) -> String {
        guard let value = values[name]?.first else { fail("\(name) is missing\n\(usage)") }
        return value
    }

    func count(_ name: String, _ default: Int) -> Int {
        guard let text = values[name]?.first else { return `default` }
        guard let value = Int(text), value >= 0 else { fail("\(name): expected a whole number ≥ 0, found \(text)") }
        return value
    }
}

/// The bundle the app ships with (in an app: a resource of its own), at most a bundle's size.
func shippedBundle(_ path: String) -> [UInt8] {
    guard let file = FileHandle(forReadingAtPath: path), let data = try? file.read(upToCount: RuleBundle.maxBytes + 1) else {
        fail("\(path): cannot read it")
    }
    return [UInt8](data)
}

// The engine: the active bundle of the folder, else the last good one, else the one shipped.
// The keys are pinned in the app (several, for a rotation); a bundle signed by another is refused.
// It is not Sendable: it lives on the main actor (top-level code's), which applies the events and
// activates the bundles.
let options = Options(Array(CommandLine.arguments.dropFirst()))
let engine: BundledEngine
let fetcher: BundleFetcher
do {
    let keys = try options.values["--public-key", default: []].map { path throws(BundleError) in try BundlePublicKey(file: path) }
    guard !keys.isEmpty else { fail("--public-key is missing\n\(usage)") }
    guard let url = URL(string: options.required("--url")) else { fail("--url: not a URL") }
    fetcher = try BundleFetcher(url: url)
    engine = try BundledEngine(
        store: try Store.open(path: options.required("--db")), folder: URL(fileURLWithPath: options.required("--folder")),
        trustedKeys: keys, initial: options.values["--initial"].map { shippedBundle($0[0]) },
        probation: BundledEngine.Probation(
            events: options.count("--probation-events", 1_000), maxFailures: options.count("--probation-failures", 5)))
} catch {
    fail("\(error)")
}

/// What the bundles are doing (the app's status page).
func json(_ status: BundledEngine.Status) -> JSONValue {
    .object([
        ("active_revision", .int(status.activeRevision)), ("on_probation", .bool(status.onProbation)),
        ("last_good_revision", status.lastGoodRevision.map(JSONValue.int) ?? .null),
        ("refused_revisions", .array(status.refusedRevisions.map(JSONValue.int))),
        ("last_error", status.lastError.map(JSONValue.string) ?? .null),
    ])
}

/// One poll: the fetch runs off this task, the activation on it, between two events. An app polls
/// on a timer (`fetcher.nextPoll`: 5 minutes, longer after failures); here, when told to.
@MainActor func poll() async -> JSONValue {
    let what: [(String, JSONValue)] =
        switch await engine.update(from: fetcher) {
        case .activated(let revision): [("poll", .string("activated")), ("revision", .int(revision))]
        case .notModified: [("poll", .string("not_modified"))]
        case .refused(let error): [("poll", .string("refused")), ("error", .string(error.description))]
        case .fetchFailed(let error): [("poll", .string("fetch_failed")), ("error", .string(error.description))]
        }
    return .object(what + [("status", json(engine.status))])
}

/// One event of a user: its decisions, or why it was refused (then nothing changed in the database).
@MainActor func apply(_ line: String) -> JSONValue {
    do throws(EngineError) {
        let outcome = try engine.apply(try EngineEvent.parse(line))
        return .object([("ok", .bool(true)), ("decisions", outcome.decisions)])
    } catch {
        return .object([("ok", .bool(false)), ("code", .string(error.code.rawValue)), ("message", .string(error.message))])
    }
}

while let line = readLine() {
    let text = line.trimmingCharacters(in: .whitespaces)
    if text.isEmpty || text.hasPrefix("#") { continue }
    let answer =
        switch text {
        case "poll": await poll()
        case "status": json(engine.status)
        default: apply(text)
        }
    FileHandle.standardOutput.write(Data("\(answer)\n".utf8))
}
