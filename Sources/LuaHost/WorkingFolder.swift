import Foundation

/// The folder that relative paths name: the process's working folder, or, for a command run
/// in-process (the tests run commands so: `WorkingFolder.$path.withValue(folder) { … }`), the
/// one its caller gives. Each door where a path a user gave is opened, created or listed resolves
/// it here, on the command's thread; messages keep the path as the user wrote it. Unset (a
/// command in its own process), a path is left as it is and the system resolves it.
package enum WorkingFolder {
    /// The folder of the command running on this task, when it is not the process's.
    @TaskLocal package static var path: String?

    /// `given` as the system must see it: under ``path`` when that is set and `given` is relative.
    package static func resolve(_ given: String) -> String {
        guard let path, !given.isEmpty, !given.hasPrefix("/") else { return given }
        return given == "." ? path : path + "/" + given
    }

    /// The working folder itself (absolute).
    package static var current: String { path ?? FileManager.default.currentDirectoryPath }
}
