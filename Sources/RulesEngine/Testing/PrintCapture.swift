/// What the tests of a run print, as their results keep it: a test keeps at most
/// `TestLimits.printedBytesPerTest` bytes of it and the run `TestLimits.printedBytesPerRun` in
/// all. Once a test reaches either, what it prints after is counted, not kept, and its last line
/// says how much was cut and which limit cut it: a test that prints in a loop costs its own
/// instruction budget, never the run's memory.
final class PrintCapture {
    private var runBytes = 0
    private var lines: [String] = []
    private var testBytes = 0
    /// What was not kept of the test's output, and the limit that cut it (nil: nothing was cut).
    private var cut: (lines: Int, bytes: Int, limit: String)?

    /// Starts a test: `printed` is what it prints from now on.
    func begin() {
        lines = []
        testBytes = 0
        cut = nil
    }

    func append(_ line: String) {
        let size = line.utf8.count
        if var cut {
            cut.lines += 1
            cut.bytes += size
            self.cut = cut
        } else if testBytes + size > TestLimits.printedBytesPerTest {
            cut = (1, size, "a test keeps \(TestLimits.printedBytesPerTest >> 10) KiB of what it prints")
        } else if runBytes + size > TestLimits.printedBytesPerRun {
            cut = (1, size, "a run keeps \(TestLimits.printedBytesPerRun >> 20) MiB of what its tests print")
        } else {
            lines.append(line)
            testBytes += size
            runBytes += size
        }
    }

    /// The lines kept since `begin`, then, when some were cut, a line saying how many and why.
    var printed: [String] {
        guard let cut else { return lines }
        return lines + ["… cut: \(cut.lines) more line\(cut.lines == 1 ? "" : "s") (\(cut.bytes) bytes) not kept: \(cut.limit)"]
    }
}
