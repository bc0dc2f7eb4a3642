import CLuaSupport

/// What identifies the code that proves rule files: the build ids of the images it runs in (the
/// image holding this module, the Lua library and the Swift runtime, each once), read from the
/// images in memory (``rr_build_id``). A rebuilt binary has another, whatever its file's dates; a
/// copy of the same binary has the same. Nil when an image has none, or off Linux: then no proof
/// is kept on disk (``ProofStore``).
enum BuildIdentity {
    static let current: String? = {
        var ids: [String] = []
        // A library the process does not resolve by name is linked into this image (a static build).
        for address in [#dsohandle, rr_symbol_address("lua_version"), rr_symbol_address("swift_retain")] {
            guard let address else { continue }
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = rr_build_id(address, &bytes, bytes.count)
            guard count > 0 else { return nil }
            let id = bytes.prefix(count).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            if !ids.contains(id) { ids.append(id) }
        }
        return ids.joined(separator: " ")
    }()
}
