import Foundation
import LuaHost

/// The one way the tool's messages reach the terminal (``Console/current``): errors and problems
/// quote what users and rules wrote (a rule's `error("\27[2J")`, a persona's time zone, a file
/// name, an argument), so their control characters are escaped (`VisibleText`: `\u{1B}`, `\r`,
/// `\u{0}`; line feeds and tabs kept) and cannot clear the screen, move the cursor or rewrite what
/// was printed before.
enum Terminal {
    /// `message` and a line feed on standard error, escaped.
    static func error(_ message: String) {
        Console.current.error(VisibleText.escaping(message) + "\n")
    }

    /// `message` and a line feed on standard output, escaped.
    static func line(_ message: String) {
        Console.current.output(VisibleText.escaping(message) + "\n")
    }

    /// `text` (output of rulesrun's own: JSON, reports, figures) on standard output as is.
    static func print(_ text: String, terminator: String = "\n") {
        Console.current.output(text + terminator)
    }
}
