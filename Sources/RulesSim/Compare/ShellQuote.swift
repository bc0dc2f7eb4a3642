/// Shell quoting for the commands `compare` prints and writes into replay files' headers.
public enum ShellQuote {
    /// `text` as one shell word: unchanged when it has only characters no shell treats specially,
    /// else in single quotes (a single quote inside written as `'\''`).
    public static func quote(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=@%+,")
        if !text.isEmpty, text.allSatisfy({ plain.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
