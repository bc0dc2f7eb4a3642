extension Array {
    /// Shrink candidates of an array, most shrunk first: `shorterCandidates` then
    /// `elementCandidates`. Lazy: each candidate is built when it is reached, so that a shrinker
    /// that accepts an early candidate never builds the others (all of them at once would be
    /// quadratic in the length: a copy of the array per element).
    package func shrinkCandidates<Smaller: Sequence<Element>>(
        minCount: Int = 0, element shrink: @escaping (Element) -> Smaller
    ) -> AnySequence<[Element]> {
        AnySequence([shorterCandidates(minCount: minCount), elementCandidates(shrink)].joined())
    }

    /// Shorter arrays: prefixes of `minCount`, then 1, 2, 4, 8… elements, then each element left
    /// out. Lazy, as `shrinkCandidates`.
    package func shorterCandidates(minCount: Int = 0) -> AnySequence<[Element]> {
        guard count > minCount else { return AnySequence([]) }
        var lengths: [Int] = []
        var length = minCount
        while length < count - 1 {
            lengths.append(length)
            length = Swift.max(length * 2, length + 1)
        }
        let prefixes = lengths.lazy.map { Array(self.prefix($0)) }
        let leftOut = indices.lazy.map { i -> [Element] in
            var shorter = self
            shorter.remove(at: i)
            return shorter
        }
        return AnySequence([AnySequence(prefixes), AnySequence(leftOut)].joined())
    }

    /// Arrays of the same length with one element replaced by one of its shrink candidates. Lazy:
    /// `shrink` is called for an element when the candidates reach it.
    package func elementCandidates<Smaller: Sequence<Element>>(_ shrink: @escaping (Element) -> Smaller) -> AnySequence<[Element]> {
        AnySequence(
            indices.lazy.flatMap { i in
                shrink(self[i]).lazy.map { smaller -> [Element] in
                    var copy = self
                    copy[i] = smaller
                    return copy
                }
            })
    }
}
