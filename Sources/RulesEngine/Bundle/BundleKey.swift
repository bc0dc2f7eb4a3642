import Crypto
import Foundation
import LuaHost

/// The private half of an Ed25519 key pair that signs rule bundles (`rulesrun keygen`). Its file is
/// one line, `rulesrun-ed25519-private-key BASE64` (the 32-byte seed), readable by its owner only.
public struct BundleSigningKey: Sendable {
    /// The key's 32-byte seed.
    let raw: [UInt8]
    var key: Curve25519.Signing.PrivateKey { try! Curve25519.Signing.PrivateKey(rawRepresentation: raw) }

    /// A new random key.
    public static func generate() -> BundleSigningKey {
        BundleSigningKey(raw: [UInt8](Curve25519.Signing.PrivateKey().rawRepresentation))
    }

    /// The key the file at `path` holds.
    public init(file path: String) throws(BundleError) {
        let raw = try BundleKeyFile.read(path, kind: BundleKeyFile.privateKind)
        guard (try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)) != nil else {
            throw BundleError(path, "not an Ed25519 private key (\(BundleKeyFile.privateKind) and 32 bytes in base64)")
        }
        self.raw = raw
    }

    init(raw: [UInt8]) { self.raw = raw }

    /// The public key that checks its signatures.
    public var publicKey: BundlePublicKey { BundlePublicKey(raw: [UInt8](key.publicKey.rawRepresentation)) }

    /// The key file's text.
    public var fileText: String { "\(BundleKeyFile.privateKind) \(Data(raw).base64EncodedString())\n" }

    func sign(_ bytes: [UInt8]) throws -> [UInt8] { [UInt8](try key.signature(for: bytes)) }
}

/// A public Ed25519 key that an engine trusts to sign the bundles it activates (pinned: several,
/// for rotation). Its file is one line, `rulesrun-ed25519-public-key BASE64` (32 bytes); its id,
/// which a bundle's signature names, is the first 16 hex digits of its SHA-256.
public struct BundlePublicKey: Sendable, Hashable, CustomStringConvertible {
    let raw: [UInt8]

    init(raw: [UInt8]) { self.raw = raw }

    /// The key the file at `path` holds.
    public init(file path: String) throws(BundleError) {
        let raw = try BundleKeyFile.read(path, kind: BundleKeyFile.publicKind)
        try self.init(raw: raw, source: path)
    }

    /// The key of a public key file's text (`rulesrun-ed25519-public-key BASE64`).
    public init(text: String, source: String = "public key") throws(BundleError) {
        try self.init(raw: BundleKeyFile.parse(Array(text.utf8), kind: BundleKeyFile.publicKind, source: source), source: source)
    }

    private init(raw: [UInt8], source: String) throws(BundleError) {
        guard (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else {
            throw BundleError(source, "not an Ed25519 public key (\(BundleKeyFile.publicKind) and 32 bytes in base64)")
        }
        self.raw = raw
    }

    /// The first 16 hex digits of the key's SHA-256.
    public var id: String { String(BundleManifest.hex(SHA256.hash(data: raw)).prefix(16)) }

    public var description: String { id }

    /// The key file's text.
    public var fileText: String { "\(BundleKeyFile.publicKind) \(Data(raw).base64EncodedString())\n" }

    func isValidSignature(_ signature: [UInt8], for bytes: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(signature, for: bytes)
    }
}

/// The text of a key file: its kind, a space, the key in base64, an optional line feed.
enum BundleKeyFile {
    static let privateKind = "rulesrun-ed25519-private-key"
    static let publicKind = "rulesrun-ed25519-public-key"
    /// A key file is one short line.
    static let maxBytes = 256

    static func read(_ path: String, kind: String) throws(BundleError) -> [UInt8] {
        let bytes: [UInt8]
        do { bytes = try SourceFile.read(path, maxBytes: maxBytes) } catch { throw BundleError(path, error.description) }
        return try parse(bytes, kind: kind, source: path)
    }

    static func parse(_ bytes: [UInt8], kind: String, source: String) throws(BundleError) -> [UInt8] {
        let expected = "one line: \(kind) and the key's 32 bytes in base64"
        guard bytes.count <= maxBytes, let text = String(bytes: bytes, encoding: .utf8) else {
            throw BundleError(source, "not a key file (expected \(expected))")
        }
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == kind else {
            let other = kind == privateKind ? publicKind : privateKind
            if parts.first.map(String.init) == other {
                throw BundleError(source, "a \(other == publicKind ? "public" : "private") key, expected a \(kind == publicKind ? "public" : "private") one (\(expected))")
            }
            throw BundleError(source, "not a key file (expected \(expected))")
        }
        guard let raw = Data(base64Encoded: String(parts[1])), raw.count == 32 else {
            throw BundleError(source, "the key is not 32 bytes in base64 (expected \(expected))")
        }
        return [UInt8](raw)
    }
}
