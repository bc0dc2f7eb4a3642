import ArgumentParser

/// `--rules`, the rule folder of `simulate` and `replay`.
struct RuleFolderOption: ParsableArguments {
    @Option(help: "The rule folder.") var rules = "rules"
}
