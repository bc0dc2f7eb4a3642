import ArgumentParser

/// `replay --explain`'s values: `text` (each output line followed by its rule calls as indented
/// text, for people) or `json` (an `explain` array at the end of each output line, for tools).
enum ExplainFormat: String, CaseIterable, ExpressibleByArgument {
    case text, json
}
