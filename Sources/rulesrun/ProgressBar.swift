import Foundation

/// A progress bar on standard error, only when it is a terminal and once the work has lasted more
/// than a second (so that short runs and pipes stay quiet).
final class ProgressBar {
    private let label: String
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let enabled = isatty(2) == 1

    init(label: String) { self.label = label }

    func update(_ done: Int, of total: Int) {
        guard enabled else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed > 1, now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total) \(label)  \(String(format: "%.1f", elapsed)) s".utf8))
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        drawn = false
    }
}
