import Foundation
import Logging

/// swift-log's handler for rulesrun: a line on the standard error of ``Console/current`` (a rule's
/// `print` while its file loads, when nothing else takes it), in the format of swift-log's own
/// `StreamLogHandler` (`2026-03-02T08:00:00+0000 info rulesrun.lua: [LuaHost] text`).
struct ConsoleLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Makes the handler every logger of the process gets (once; later calls change nothing).
    static let bootstrap: Void = LoggingSystem.bootstrap { ConsoleLogHandler(label: $0) }

    func log(event: LogEvent) {
        let pretty = metadata.isEmpty ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        Console.current.error("\(Self.timestamp()) \(event.level) \(label):\(pretty) [\(event.source)] \(event.message)\n")
    }

    private static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [Int8](repeating: 0, count: 64)
        strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(cString: buffer)
    }
}
