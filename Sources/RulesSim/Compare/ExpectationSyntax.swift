import LuaHost

/// The text of an expectation (`--expect`) read character by character, the grammar both kinds
/// share (`Expectation` over Pressure's fields, `LineExpectation` over the economy's and the habit
/// tracker's): `SIDE.FIELD OP SIDE.FIELD`, SIDE `A` or `B` (either case), FIELD a name of ASCII
/// letters, digits and `_`, OP one of `<=`, `<`, `>=`, `>`, `==`, `!=`, with spaces around the
/// operator and at either end. Every character must be understood: anything else (a leading `.`,
/// a third operand, text after the second field) is refused at its position, and so is a text
/// longer than ``maxCharacters``. Which names are fields is each kind's to say.
struct ExpectationSyntax {
    /// The longest expectation, in characters (the longest with two real fields has about 60).
    static let maxCharacters = 200

    var left: (side: Expectation.Side, field: String)
    var relation: Expectation.Relation
    var right: (side: Expectation.Side, field: String)

    init(_ text: String) throws(ExpectationError) {
        let characters = Array(text)
        guard characters.count <= Self.maxCharacters else {
            throw ExpectationError(
                text: text, message: "an expectation is at most \(Self.maxCharacters) characters, found \(characters.count)")
        }
        var i = 0
        func skipSpaces() { while i < characters.count, characters[i].isWhitespace { i += 1 } }
        /// The position of the first character not understood, what was expected there and what is there.
        func notUnderstood(_ expected: String) -> ExpectationError {
            let found = i < characters.count ? "\"\(VisibleText.decoding(String(characters[i...]).utf8, limit: 20))\"" : "the end"
            return ExpectationError(text: text, message: "character \(i + 1) is not understood: expected \(expected), found \(found)")
        }
        func operand(_ which: String) throws(ExpectationError) -> (side: Expectation.Side, field: String) {
            skipSpaces()
            guard i < characters.count, let side = Expectation.Side(rawValue: characters[i].uppercased()) else {
                throw notUnderstood("A or B, the side of the \(which) field (A.FIELD or B.FIELD)")
            }
            i += 1
            guard i < characters.count, characters[i] == "." else { throw notUnderstood("\".\" after \(side.rawValue)") }
            i += 1
            let start = i
            while i < characters.count, characters[i].isASCII, characters[i].isLetter || characters[i].isNumber || characters[i] == "_" {
                i += 1
            }
            guard i > start else { throw notUnderstood("a field's name after \"\(side.rawValue).\"") }
            return (side, String(characters[start..<i]))
        }
        left = try operand("left")
        skipSpaces()
        // The longest operator first, so that "<=" is not read as "<".
        let rest = characters[i...]
        guard let relation = Expectation.Relation.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
            .first(where: { rest.starts(with: $0.rawValue) })
        else {
            throw notUnderstood("a relation (one of <=, <, >=, >, ==, !=) after \(left.side.rawValue).\(left.field)")
        }
        self.relation = relation
        i += relation.rawValue.count
        right = try operand("right")
        skipSpaces()
        guard i == characters.count else {
            throw notUnderstood("the end of the expectation after \(right.side.rawValue).\(right.field)")
        }
    }
}
