extension PolicyRules {
    /// These rules with their answers remembered (`RuleMemo`), for the calls of one user or one
    /// generated history: what `Engine` does for one batch, for callers outside the engine that ask
    /// the rules directly (`rulesrun compare`'s walk). Rules are pure functions of their arguments,
    /// so the answers are those of the rules themselves; errors are not remembered.
    package func remembering() -> any PolicyRules { RuleMemo(self) }
}
