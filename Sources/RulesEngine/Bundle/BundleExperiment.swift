import Crypto
import RulesModel
import RulesStore

/// The experiment a bundle runs (docs/bundles.md#experiments): several arms, each a rule set of the
/// bundle, and which users each arm gets. A user falls in one of 10,000 buckets by a salted SHA-256
/// of its name; each arm holds a set of buckets (its allocation, in basis points).
///
/// - Deterministic: the same salt and name give the same bucket on every device and server.
/// - Independent between experiments: another salt gives an unrelated bucket.
/// - Stable: a new revision built from the previous one (``allocate(name:salt:shares:previous:)``)
///   keeps every bucket of an arm whose share does not shrink, so that growing an arm only moves
///   users into it, from the arms that shrink.
/// - A kill switch is a revision that gives one arm all 10,000 buckets.
public struct BundleExperiment: Sendable, Equatable {
    public static let buckets = 10_000
    public static let maxArms = 8

    public var name: String
    public var salt: String
    /// The arms, the first being the bundle's own rule set (the control).
    public var arms: [Arm]

    public struct Arm: Sendable, Equatable {
        public var name: String
        /// Its buckets, as sorted disjoint ranges.
        public var buckets: [Range<Int>]
        /// Its share of users, in basis points (its number of buckets).
        public var basisPoints: Int { buckets.reduce(0) { $0 + $1.count } }
    }

    /// The bucket of `user` in an experiment salted `salt`: the first 8 bytes of
    /// SHA-256(salt ":" user), big-endian, modulo 10,000.
    public static func bucket(of user: String, salt: String) -> Int {
        // Computed at every event: the three parts hashed in place (no string or array made).
        var hasher = SHA256()
        var salt = salt, user = user
        salt.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        withUnsafeBytes(of: UInt8(ascii: ":")) { hasher.update(bufferPointer: $0) }
        user.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let value = hasher.finalize().withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
        return Int(value % UInt64(buckets))
    }

    /// The index in ``arms`` of the arm of `user`.
    public func armIndex(of user: String) -> Int { armIndex(ofBucket: Self.bucket(of: user, salt: salt)) }

    /// The index in ``arms`` of the arm holding `bucket`.
    public func armIndex(ofBucket bucket: Int) -> Int { arms.firstIndex { $0.buckets.contains { $0.contains(bucket) } } ?? 0 }

    /// An experiment whose arms get `shares` (name and basis points, summing to 10,000, the
    /// control first). With `previous` (the experiment of the bundle this one replaces, same name
    /// and salt), each arm keeps its buckets: an arm that shrinks gives up its highest ones, an
    /// arm that grows takes the lowest free ones. Without it, the arms take consecutive buckets
    /// in order.
    public static func allocate(
        name: String, salt: String, shares: [(name: String, basisPoints: Int)], previous: BundleExperiment?
    ) throws(BundleError) -> BundleExperiment {
        try checkName(name, field: "experiment name")
        try checkName(salt, field: "experiment salt")
        guard (1...maxArms).contains(shares.count) else { throw BundleError("experiment", "expected 1 to \(maxArms) arms, found \(shares.count)") }
        for (arm, share) in shares {
            try checkName(arm, field: "arm name")
            guard (0...buckets).contains(share) else {
                throw BundleError("experiment", "arm \(arm): expected 0 to \(buckets) basis points, found \(share)")
            }
        }
        guard Set(shares.map(\.name)).count == shares.count else { throw BundleError("experiment", "an arm is named twice") }
        let total = shares.reduce(0) { $0 + $1.basisPoints }
        guard total == buckets else {
            throw BundleError("experiment", "the arms' shares add up to \(total) basis points; expected \(buckets) (100 %)")
        }
        let kept = previous.flatMap { $0.name == name && $0.salt == salt ? $0 : nil }
        var owner = [Int?](repeating: nil, count: buckets)
        var held = [Int](repeating: 0, count: shares.count)
        // Each arm keeps what it had, up to its new share, lowest buckets first.
        for (index, share) in shares.enumerated() {
            guard let old = kept?.arms.first(where: { $0.name == share.name }) else { continue }
            for range in old.buckets {
                for bucket in range where held[index] < share.basisPoints {
                    owner[bucket] = index
                    held[index] += 1
                }
            }
        }
        // Then each takes the lowest free buckets until it has its share.
        var next = 0
        for (index, share) in shares.enumerated() {
            while held[index] < share.basisPoints {
                while owner[next] != nil { next += 1 }
                owner[next] = index
                held[index] += 1
            }
        }
        var members = [[Int]](repeating: [], count: shares.count)
        for (bucket, index) in owner.enumerated() { members[index!].append(bucket) }
        let arms = shares.indices.map { Arm(name: shares[$0].name, buckets: ranges(members[$0])) }
        return BundleExperiment(name: name, salt: salt, arms: arms)
    }

    /// The sorted `buckets` as ranges of consecutive ones.
    static func ranges(_ buckets: [Int]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for bucket in buckets {
            if let last = result.last, last.upperBound == bucket {
                result[result.count - 1] = last.lowerBound..<(bucket + 1)
            } else {
                result.append(bucket..<(bucket + 1))
            }
        }
        return result
    }

    /// Names of experiments, salts and arms: those of an exposure's experiment and arm (1 to 40 of
    /// a–z, 0–9, `-`, `_` and `.`).
    static func checkName(_ name: String, field: String) throws(BundleError) {
        guard ExperimentExposure.isName(name) else {
            throw BundleError("experiment", "\(field) \"\(name.prefix(60))\": expected \(ExperimentExposure.nameRule)")
        }
    }

    /// The path prefix of arm `index`'s files in the bundle: the control's files are the bundle's
    /// own (no prefix), another arm's are under `arms/NAME/`.
    func prefix(ofArm index: Int) -> String { index == 0 ? "" : "arms/\(arms[index].name)/" }

    var json: JSONValue {
        .object([
            ("name", .string(name)), ("salt", .string(salt)),
            (
                "arms",
                .array(
                    arms.map { arm in
                        .object([
                            ("name", .string(arm.name)), ("basis_points", .int(arm.basisPoints)),
                            ("buckets", .array(arm.buckets.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })),
                        ])
                    })
            ),
        ])
    }

    /// The experiment of a manifest, every field checked: each bucket in exactly one arm.
    init(_ reader: ManifestReader) throws(BundleError) {
        try reader.onlyKeys(["name", "salt", "arms"])
        let file = reader.file
        func checked(_ value: String, _ field: String) throws(BundleError) -> String {
            do { try Self.checkName(value, field: field) } catch { throw BundleError(file, "\(reader.path).\(error.message)") }
            return value
        }
        name = try checked(try reader.string("name", maxLength: 40), "name")
        salt = try checked(try reader.string("salt", maxLength: 40), "salt")
        let list = try reader.array("arms", maxCount: Self.maxArms)
        guard !list.isEmpty else { throw BundleError(file, "\(reader.path).arms: expected 1 to \(Self.maxArms) arms") }
        var owner = [Int?](repeating: nil, count: Self.buckets)
        arms = []
        for (index, element) in list.enumerated() {
            let entry = try ManifestReader(file: file, value: element, path: "\(reader.path).arms[\(index)]")
            try entry.onlyKeys(["name", "basis_points", "buckets"])
            let name = try checked(try entry.string("name", maxLength: 40), "arms[\(index)].name")
            guard !arms.contains(where: { $0.name == name }) else { throw BundleError(file, "\(entry.path).name: \(name) names another arm too") }
            let basisPoints = try entry.int("basis_points", 0...Self.buckets)
            var ranges: [Range<Int>] = []
            for (r, value) in try entry.array("buckets", maxCount: Self.buckets).enumerated() {
                guard case .array(let pair) = value, pair.count == 2, case .int(let low) = pair[0], case .int(let high) = pair[1],
                    0 <= low, low < high, high <= Self.buckets, ranges.last.map({ $0.upperBound < low }) ?? true
                else {
                    throw BundleError(
                        file, "\(entry.path).buckets[\(r)]: expected [first, end) with 0 ≤ first < end ≤ \(Self.buckets), after the previous range")
                }
                for bucket in low..<high {
                    if let other = owner[bucket] {
                        throw BundleError(file, "\(entry.path).buckets[\(r)]: bucket \(bucket) is arm \(arms[other].name)'s too")
                    }
                    owner[bucket] = index
                }
                ranges.append(low..<high)
            }
            let arm = Arm(name: name, buckets: ranges)
            guard arm.basisPoints == basisPoints else {
                throw BundleError(file, "\(entry.path).basis_points: \(basisPoints), but its buckets hold \(arm.basisPoints)")
            }
            arms.append(arm)
        }
        if let missing = owner.firstIndex(where: { $0 == nil }) {
            throw BundleError(file, "\(reader.path).arms: bucket \(missing) is in no arm (the arms must hold all \(Self.buckets))")
        }
    }

    init(name: String, salt: String, arms: [Arm]) {
        self.name = name
        self.salt = salt
        self.arms = arms
    }
}
