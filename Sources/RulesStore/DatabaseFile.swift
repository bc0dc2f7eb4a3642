import Foundation
import GRDBSQLite

/// How a database file is named to SQLite: by its path, never read as a URI.
///
/// SQLite built with `SQLITE_USE_URI` (Debian's is) reads a file name that begins with `file:` as
/// a URI: `file:x.sqlite` opens `x.sqlite`, `file:x.sqlite?mode=memory` an empty database in
/// memory, `%41` is `A`, and `?` and `#` end the path. A run that locked or renamed the file its
/// path names would then write another one. Every database this program opens, attaches or writes
/// (`VACUUM INTO`) is named through ``name(_:)``; the only URIs SQLite is given are the ones
/// ``readOnlyURI(_:immutable:)`` makes, with the path percent-encoded.
package enum DatabaseFile {
    /// `path` as SQLite must be given it to open the file of that name: `./` before a relative
    /// path that SQLite would not read as a file name (`file:…`, `:memory:`), the path otherwise
    /// (a name that does not begin with `file:` is never a URI).
    package static func name(_ path: String) -> String {
        path.hasPrefix("file:") || path == ":memory:" ? "./" + path : path
    }

    /// Whether this process's SQLite reads `file:` names as URIs (`SQLITE_USE_URI`): the
    /// read-only URIs of ``readOnlyURI(_:immutable:)`` work only then.
    package static let readsURIs = sqlite3_compileoption_used("USE_URI") != 0

    /// A URI that opens the file at the absolute path `path` read-only (`mode=ro`): SQLite writes
    /// nothing to it, never checkpoints its log into it. `immutable`: nor does it lock it or look
    /// for a log or a shared-memory file beside it (and so makes none): for a file that holds the
    /// whole database and that nothing writes meanwhile. Nil when SQLite does not read URIs.
    package static func readOnlyURI(_ path: String, immutable: Bool) -> String? {
        guard readsURIs, path.hasPrefix("/") else { return nil }
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        var encoded = "file:"
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return encoded + (immutable ? "?mode=ro&immutable=1" : "?mode=ro")
    }
}
