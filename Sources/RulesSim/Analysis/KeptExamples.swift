/// The first few examples of what is counted (``EventLog/Problems``, ``Refusals``), each with its
/// place in the input: the line it was read on, or its user's ``LoggedUser/position``. The parts of
/// one input read apart (`fit --shard i/n`) each keep their first examples; merged by place, they
/// give the whole input's first ones.
package enum KeptExamples {
    /// The first `kept` examples of `parts` by place (ties: in the parts' order, each part's own order kept).
    package static func first(_ parts: [[(place: Int, text: String)]], kept: Int) -> [(place: Int, text: String)] {
        let all = parts.enumerated().flatMap { p, examples in examples.enumerated().map { (p, $0, $1) } }
        return all.sorted { ($0.2.place, $0.0, $0.1) < ($1.2.place, $1.0, $1.1) }.prefix(kept).map(\.2)
    }
}
