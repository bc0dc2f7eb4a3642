import LuaHost

/// What the rules draw from `math.random` in a replay of many users: each user draws from a stream
/// of its own, seeded from the replay's seed and the user (``seed(of:seed:)``) and carried from one
/// of its events to the next, so that a user's draws depend neither on the other users' events
/// between its own nor on which worker applies them; a simulated user (`uN`) draws what `simulate
/// --seed` gave it. Only a user's switch to another costs anything: the generator's state is put
/// aside for the user before and taken up for the next.
package final class RuleDraws {
    private let seed: UInt64
    /// Each user's generator state when another user's event came (the current user's is in the host).
    private var states: [String: [UInt8]] = [:]
    /// The user whose stream the host's generator holds.
    private var current: String?

    package init(seed: UInt64) { self.seed = seed }

    /// Makes `host`'s `math.random` draw from `user`'s stream.
    package func draw(for user: String, in host: LuaHost) throws {
        guard user != current else { return }
        if let current { states[current] = host.randomState }
        current = user
        if let state = states.removeValue(forKey: user) {
            host.randomState = state
        } else {
            try host.seedRandom(Self.seed(of: user, seed: seed))
        }
    }

    /// The seed of the rules' `math.random` for the unit of work `key` of a run seeded `seed` (a
    /// simulated user's id − 1, a compared history's case): the same draws whichever worker runs it.
    package static func seed(_ seed: UInt64, key: UInt64) -> Int64 { Int64(bitPattern: seed &* 0x9E37_79B9_7F4A_7C15 &+ key) }

    /// The seed of a user's stream: a simulated user's (`uN`, as `simulate --seed` seeds it, so that
    /// a simulated log replays as it was simulated), else one from its name (FNV-1a).
    package static func seed(of user: String, seed: UInt64) -> Int64 {
        if user.first == "u", let n = UInt64(user.dropFirst()), n >= 1 { return Self.seed(seed, key: n - 1) }
        var digest = FNV64()
        digest.add(user)
        return Self.seed(seed, key: digest.digest)
    }
}
