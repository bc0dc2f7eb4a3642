/// The kind of an unlock quest (A2).
public enum QuestType: String, Sendable, Codable, CaseIterable {
    case breathing = "BREATHING"
    case copyText = "COPY_TEXT"
    case qrScan = "QR_SCAN"
}
