import Foundation
import LuaHost

/// A progress bar on standard error, only when it is a terminal and once the work has lasted more
/// than a second (so that short runs and pipes stay quiet). One bar can show the stages of a run
/// in turn, each with its label.
final class ProgressBar {
    private var label: String
    private let started = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false
    private let console = Console.current
    private var enabled: Bool { console.errorIsTerminal }

    init(label: String) { self.label = label }

    func update(_ done: Int, of total: Int, label: String? = nil) {
        guard enabled else { return }
        if let label, label != self.label {
            self.label = label
            lastDraw = .distantPast
        }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard elapsed > 1, now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
        let width = 30
        let filled = total == 0 ? width : width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        console.error("\r\u{1B}[2K[\(bar)] \(done)/\(total) \(VisibleText.escaping(self.label))  \(String(format: "%.1f", elapsed)) s")
        drawn = true
    }

    func finish() {
        guard drawn else { return }
        console.error("\r\u{1B}[2K")
        drawn = false
    }
}
