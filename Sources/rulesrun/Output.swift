import ArgumentParser
import Foundation

/// Where a command's text goes: standard output (no path, or `-`), or a file.
enum Output {
    static func write(_ text: String, to path: String?) throws {
        guard let path, path != "-" else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        } catch {
            throw ValidationError("cannot write \(path): \(reason(for: path, error))")
        }
    }

    /// Refuses, before a long run, an output file that cannot be written: an empty name, a
    /// folder, or a place where its folder cannot be made.
    static func check(_ path: String?, option: String) throws {
        guard let path, path != "-" else { return }
        guard !path.isEmpty else { throw ValidationError("\(option): expected a file name, found an empty string") }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { throw ValidationError("\(option) \(path): is a folder; expected a file") }
            guard FileManager.default.isWritableFile(atPath: path) else { throw ValidationError("\(option) \(path): not writable") }
            return
        }
        // Standardized: `new/../x` would go up from `new/..` for ever.
        var folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), folder.path != "/" { folder.deleteLastPathComponent() }
        guard isFolder.boolValue, FileManager.default.isWritableFile(atPath: folder.path) else {
            throw ValidationError("\(option) \(path): cannot be created in \(folder.path)")
        }
    }

    private static func reason(for path: String, _ error: any Error) -> String {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue { return "is a folder" }
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedFailureReason ?? ns.localizedDescription
    }
}
