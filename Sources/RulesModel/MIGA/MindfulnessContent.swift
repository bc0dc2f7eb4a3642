/// A quote or affirmation shown on MIGA's Gateway Screen (miga-data-model.md,
/// "MindfulnessContent"). The library is bundled, read-only content (a JSON file), not user data,
/// so the store has no table for it; `displayCount` rotation is the app's business.
///
/// Decisions: `id` and `category` are identifiers of 1–64 characters, `text` 1–500 characters,
/// `author` 1–100 when present, `displayCount` ≥ 0. "category must match one of the user's
/// interests" is a filter applied when choosing content, not a property of the content.
public struct MindfulnessContent: Hashable, Sendable, Codable, Validatable {
    public var id: String
    public var text: String
    public var category: String
    public var author: String?
    public var displayCount: Int

    public init(id: String, text: String, category: String, author: String? = nil, displayCount: Int = 0) {
        self.id = id
        self.text = text
        self.category = category
        self.author = author
        self.displayCount = displayCount
    }

    public func validate() throws {
        let check = FieldCheck("MindfulnessContent")
        try check.identifier("id", id, maxBytes: 64)
        try check.text("text", text, max: 500)
        try check.identifier("category", category, maxBytes: 64)
        try check.optionalText("author", author, max: 100)
        try check.atLeast("displayCount", displayCount, 0)
    }

    /// The entries of `library` whose category is one of `interests` (the seed's filter).
    public static func matching(_ interests: [String], in library: [MindfulnessContent]) -> [MindfulnessContent] {
        let wanted = Set(interests)
        return library.filter { wanted.contains($0.category) }
    }
}
