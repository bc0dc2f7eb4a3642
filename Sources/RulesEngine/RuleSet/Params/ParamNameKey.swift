/// A key of a table whose keys are param names (declarations in `params`, values a task or an
/// event sets), read as a decoder's keyed container.
struct ParamNameKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}
