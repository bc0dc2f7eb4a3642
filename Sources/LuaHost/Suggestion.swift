/// "Did you mean …?" for misspelt field names.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance (ignoring case), if it is close enough to be
    /// a plausible typo: at most a third of the word's length, and at least 1.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let d = distance(target, Array(candidate.lowercased()))
            if d < (best?.distance ?? Int.max) { best = (candidate, d) }
        }
        guard let best, best.distance <= max(1, target.count / 3) else { return nil }
        return best.name
    }

    /// Levenshtein distance, with adjacent transpositions counted as one edit.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
