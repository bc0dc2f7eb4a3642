extension RuleSet {
    /// Whether the file of `module` (`pricing`) is the folder's own, not inherited through
    /// `extends` (an inherited file's label is its path from the base, `rules/pricing.lua`).
    package func isOwnFile(_ module: String) -> Bool {
        fileLabels.contains(module + ".lua")
    }

    /// The lines of ``unproved`` about functions of the folder's own files (`ownFilesOnly`), or all
    /// of them, and how many were left out: what is not proved in an inherited file is its base's
    /// business, as its tests are.
    package func unproved(ownFilesOnly: Bool) -> (lines: [String], leftOut: Int) {
        guard ownFilesOnly else { return (unproved, 0) }
        let inherited = Set(ruleFunctions.filter { !isOwnFile($0.module) }.map(\.name))
        let own = unproved.filter { line in !inherited.contains(String(line.prefix { $0 != ":" })) }
        return (own, unproved.count - own.count)
    }
}
