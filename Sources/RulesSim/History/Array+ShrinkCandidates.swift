extension Array {
    /// Shrink candidates of an array, most shrunk first: `shorterCandidates` then
    /// `elementCandidates`.
    public func shrinkCandidates(minCount: Int = 0, element shrink: (Element) -> [Element]) -> [[Element]] {
        shorterCandidates(minCount: minCount) + elementCandidates(shrink)
    }

    /// Shorter arrays: prefixes of `minCount`, then 1, 2, 4, 8… elements, then each element left out.
    public func shorterCandidates(minCount: Int = 0) -> [[Element]] {
        guard count > minCount else { return [] }
        var out: [[Element]] = []
        var length = minCount
        while length < count - 1 {
            out.append(Array(prefix(length)))
            length = Swift.max(length * 2, length + 1)
        }
        for i in indices {
            var shorter = self
            shorter.remove(at: i)
            out.append(shorter)
        }
        return out
    }

    /// Arrays of the same length with one element replaced by one of its shrink candidates.
    public func elementCandidates(_ shrink: (Element) -> [Element]) -> [[Element]] {
        var out: [[Element]] = []
        for i in indices {
            for smaller in shrink(self[i]) {
                var copy = self
                copy[i] = smaller
                out.append(copy)
            }
        }
        return out
    }
}
