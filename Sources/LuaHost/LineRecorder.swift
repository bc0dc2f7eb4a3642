/// Gathers the line counts of several hosts (each rule set a test or a worker loads has its own):
/// `start` each host once its rule files have loaded, `collect` it when its work is done.
public final class LineRecorder {
    public private(set) var counts = LineCounts()

    public init() {}

    public func start(_ host: LuaHost) { host.startLineRecording() }

    /// Adds what `host` recorded since it started or was last collected.
    public func collect(_ host: LuaHost) { counts.add(host.takeLineCounts()) }
}
