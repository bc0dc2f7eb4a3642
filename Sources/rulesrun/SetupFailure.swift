import ArgumentParser
import RulesEngine
import RulesSim

/// How `simulate` and `sweep` report what stops a run before it starts (a persona, the rule set,
/// the run's inputs): the message on standard error, and exit 2 (invalid input).
enum SetupFailure {
    static func exiting<T>(rules: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as InputFileError {
            Terminal.error("\(error)")
            throw ExitCode(2)
        } catch let error as RuleSetError {
            Terminal.error("\(rules): the rule set is not valid:\n\(error)")
            throw ExitCode(2)
        } catch let error as SimulationError {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
    }
}
