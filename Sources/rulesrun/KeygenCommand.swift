import ArgumentParser
import Foundation
import LuaHost
import RulesEngine

struct KeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 key pair that signs rule bundles: NAME.key (private) and NAME.pub (public).",
        discussion: """
            NAME.key is readable by its owner only (mode 600): keep it where bundles are built. NAME.pub is \
            what an app pins (BundledEngine's trusted keys) and what `rulesrun bundle verify --public-key` \
            takes. Neither file is replaced if it exists. docs/bundles.md

            Example:
              rulesrun keygen release
              rulesrun bundle rules --key release.key --out rules.bundle
            """
    )

    @Argument(help: "The key files' name, without extension (NAME.key, NAME.pub).") var name: String

    func run() throws {
        let key = BundleSigningKey.generate()
        let (privatePath, publicPath) = (name + ".key", name + ".pub")
        for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: WorkingFolder.resolve(path)) {
            Terminal.error("\(path): exists; a key file is never replaced (remove it, or choose another name)")
            throw ExitCode(2)
        }
        try Self.create(privatePath, key.fileText, mode: 0o600)
        try Self.create(publicPath, key.publicKey.fileText, mode: 0o644)
        Terminal.line("wrote \(privatePath) (private: keep it secret) and \(publicPath) (public key \(key.publicKey.id))")
    }

    /// Creates the file at `path` with `text`, failing if it exists (O_EXCL: two runs never share it).
    static func create(_ path: String, _ text: String, mode: mode_t) throws {
        let fd = open(WorkingFolder.resolve(path), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else {
            Terminal.error("\(path): cannot create it: \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) == bytes.count, fchmod(fd, mode) == 0 else {
            Terminal.error("\(path): cannot write it: \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
    }
}
