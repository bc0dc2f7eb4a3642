/// How a ``Store`` opens its database.
public struct StoreOptions: Sendable {
    /// A1 allows `synchronous = NORMAL` "or FULL for max safety".
    public enum Synchronous: String, Sendable { case normal = "NORMAL", full = "FULL" }
    /// The seed's `db_location` meta value, written when the database is created.
    public enum Location: String, Sendable { case appSandbox = "app_sandbox", appGroup = "app_group" }

    public var synchronous: Synchronous
    public var location: Location
    /// The `device_id` written in `meta` when the database is created; a random UUID when nil.
    public var deviceID: String?
    /// How long a writer waits for another process's lock before failing, in seconds.
    public var busyTimeoutSeconds: Double

    public init(synchronous: Synchronous = .normal, location: Location = .appSandbox, deviceID: String? = nil,
                busyTimeoutSeconds: Double = 5) {
        self.synchronous = synchronous
        self.location = location
        self.deviceID = deviceID
        self.busyTimeoutSeconds = busyTimeoutSeconds
    }
}
