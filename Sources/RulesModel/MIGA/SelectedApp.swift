import Foundation

/// A social-media app the user monitors through MIGA (miga-data-model.md, "SelectedApp").
///
/// Decisions: "valid URL scheme format" means an RFC 3986 scheme (a letter, then letters,
/// digits, `+`, `-`, `.`) followed by `:` and optionally `//` and a path without white space,
/// at most 200 characters (e.g. `instagram://`). `appName` and `iconName` are 1–100 characters.
public struct SelectedApp: Hashable, Sendable, Codable, Validatable {
    public var id: UUID
    public var userID: UserID
    public var appName: String
    public var urlScheme: String
    public var iconName: String
    public var isInstalled: Bool
    public var dateAdded: EpochMillis
    public var orderIndex: Int

    public init(
        id: UUID = UUID(), userID: UserID, appName: String, urlScheme: String, iconName: String,
        isInstalled: Bool = true, dateAdded: EpochMillis, orderIndex: Int
    ) {
        self.id = id
        self.userID = userID
        self.appName = appName
        self.urlScheme = urlScheme
        self.iconName = iconName
        self.isInstalled = isInstalled
        self.dateAdded = dateAdded
        self.orderIndex = orderIndex
    }

    public func validate() throws {
        let check = FieldCheck("SelectedApp")
        try check.text("appName", appName, max: 100)
        try check.require(SelectedApp.isValidURLScheme(urlScheme), "urlScheme", "a URL scheme such as instagram://", quoted(urlScheme))
        try check.text("iconName", iconName, max: 100)
        try check.timestamp("dateAdded", dateAdded)
        try check.atLeast("orderIndex", orderIndex, 0)
    }

    static func isValidURLScheme(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 200, let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return false }
        func isLetter(_ c: UInt8) -> Bool { (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) }
        func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        guard isLetter(bytes[0]) else { return false }
        guard bytes[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) else { return false }
        return bytes[(colon + 1)...].withUnsafeBytes { FieldCheck.everyByte(of: $0, in: 0x21...0x7E) }
    }
}
