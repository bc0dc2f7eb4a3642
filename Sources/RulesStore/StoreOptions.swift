/// How a ``Store`` opens its database.
public struct StoreOptions: Sendable {
    /// A1 allows `synchronous = NORMAL` "or FULL for max safety"; `OFF` is for generated files
    /// that are not kept when the process dies (a simulation's database, replaced at each run).
    public enum Synchronous: String, Sendable { case normal = "NORMAL", full = "FULL", off = "OFF" }
    /// The seed's `db_location` meta value, written when the database is created.
    public enum Location: String, Sendable { case appSandbox = "app_sandbox", appGroup = "app_group" }

    public var synchronous: Synchronous
    public var location: Location
    /// The `device_id` written in `meta` when the database is created; a random UUID when nil.
    public var deviceID: String?
    /// How long a writer waits for another process's lock before failing, in seconds.
    public var busyTimeoutSeconds: Double
    /// SQLite's page cache per connection, in MiB (nil: SQLite's default, 2 MiB). A large cache
    /// keeps a big bulk write in memory until it commits.
    public var cacheMiB: Int?
    /// A new file that one process fills in bulk (a simulation's database): while it is open, one
    /// connection with a rollback journal, which writes the pages new to the file once, where WAL
    /// writes them to the log and then again to the file (and looks up in the log each page the
    /// cache let go); ``Store/close()`` turns the file to WAL, A1's mode.
    public var bulkLoad: Bool

    public init(
        synchronous: Synchronous = .normal, location: Location = .appSandbox, deviceID: String? = nil,
        busyTimeoutSeconds: Double = 5, cacheMiB: Int? = nil, bulkLoad: Bool = false
    ) {
        self.synchronous = synchronous
        self.location = location
        self.deviceID = deviceID
        self.busyTimeoutSeconds = busyTimeoutSeconds
        self.cacheMiB = cacheMiB
        self.bulkLoad = bulkLoad
    }
}
