import LuaHost
import RulesModel

/// When a reminder fires, relative to the check-in window (pressure-escalation-engine.md:
/// "All notification times are relative to the user's check-in window").
///
/// Written in rule files as `"mid"` (the window's midpoint), `"close-60"` (60 minutes before the
/// window closes) or `"open+90"` (90 minutes after it opens).
package enum ReminderAnchor: Hashable, Sendable, CustomStringConvertible, Decodable {
    case midpoint
    case beforeClose(minutes: Int)
    case afterOpen(minutes: Int)

    package init?(text: String) {
        if text == "mid" {
            self = .midpoint
        } else if text.hasPrefix("close-"), let m = Int(text.dropFirst(6)), m >= 0, m < 24 * 60 {
            self = .beforeClose(minutes: m)
        } else if text.hasPrefix("open+"), let m = Int(text.dropFirst(5)), m >= 0, m < 24 * 60 {
            self = .afterOpen(minutes: m)
        } else {
            return nil
        }
    }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let anchor = ReminderAnchor(text: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "expected \"mid\", \"close-MINUTES\" or \"open+MINUTES\", found string \"\(text)\""))
        }
        self = anchor
    }

    /// Minutes after local midnight for a window from `open` to `close`.
    package func minutes(open: LocalTime, close: LocalTime) -> Int {
        switch self {
        case .midpoint: open.minutes + (close.minutes - open.minutes) / 2
        case .beforeClose(let m): close.minutes - m
        case .afterOpen(let m): open.minutes + m
        }
    }

    package var description: String {
        switch self {
        case .midpoint: "mid"
        case .beforeClose(let m): "close-\(m)"
        case .afterOpen(let m): "open+\(m)"
        }
    }
}

extension ReminderAnchor: LuaDecodingPlaceholder {
    /// The midpoint (or an hour before the close) stands in for a bad anchor while a rule file's other fields are decoded.
    package static func luaDecodingPlaceholder(_ set: LuaPlaceholderSet) -> ReminderAnchor {
        set == .first ? .midpoint : .beforeClose(minutes: 60)
    }
}
