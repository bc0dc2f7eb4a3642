import Foundation

// embed-defaults OUTPUT NAME=PATH…: writes OUTPUT, a Swift file holding each file's bytes (base64)
// under its NAME, and a digest of them all (FNV-1a, 64 bits, over names and bytes): the build tool
// of the EmbedDefaults plugin.
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: embed-defaults OUTPUT NAME=PATH…\n".utf8))
    exit(2)
}
var hash: UInt64 = 0xcbf2_9ce4_8422_2325
func mixed(_ hash: UInt64, _ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash = hash
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
    }
    return hash
}
var entries: [String] = []
for argument in arguments.dropFirst() {
    guard let equals = argument.firstIndex(of: "=") else {
        FileHandle.standardError.write(Data("embed-defaults: \(argument): expected NAME=PATH\n".utf8))
        exit(2)
    }
    let name = String(argument[..<equals])
    let path = String(argument[argument.index(after: equals)...])
    guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("embed-defaults: \(path): cannot read\n".utf8))
        exit(1)
    }
    hash = mixed(hash, Array(name.utf8) + [0])
    hash = mixed(hash, data)
    hash = mixed(hash, [0])
    entries.append("        (\"\(name)\", \"\(data.base64EncodedString())\"),")
}
let source = """
    // Generated at build time by embed-defaults (the EmbedDefaults plugin): do not edit.
    extension BuiltInDefaults {
        /// The files, by name (`rules/pricing.lua`, `personas/steady.lua`), their bytes in base64.
        static let embedded: [(name: String, base64: String)] = [
    \(entries.joined(separator: "\n"))
        ]
        /// A digest of the names and bytes: the name of the folder they are written to.
        static let embeddedDigest = "\(String(hash, radix: 16))"
    }

    """
let old = FileManager.default.contents(atPath: output)
if old != Data(source.utf8) {
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        FileHandle.standardError.write(Data("embed-defaults: \(output): \(error)\n".utf8))
        exit(1)
    }
}
