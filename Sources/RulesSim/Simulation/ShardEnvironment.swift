/// `--shard auto`: the shard of this process, read from the environment a batch system gives each
/// task of an array of them.
///
/// - Slurm job arrays: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN` and `SLURM_ARRAY_TASK_COUNT`
///   (the shard is ID − MIN + 1 of COUNT; `SLURM_ARRAY_TASK_MAX` must be MIN + COUNT − 1: an array
///   with a step or gaps, `--array=0-9:2` or `1,4,7`, does not cut a cohort into COUNT slices).
/// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (from 0), with the count given once.
/// - GNU parallel: `PARALLEL_SEQ` (the job's sequence number `{#}`, from 1), with the count given
///   once (parallel does not know how many inputs it will read).
///
/// The count is `--shard-count N` or `RULESRUN_SHARD_COUNT`; with Slurm it must agree with the
/// array's. Anything missing, not a whole number, out of range or contradictory (two systems'
/// variables at once) is an error naming the variables read and what was found.
package enum ShardEnvironment {
    /// The variable of the count for Kubernetes and GNU parallel, when `--shard-count` is not given.
    package static let countVariable = "RULESRUN_SHARD_COUNT"
    static let slurm = ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "SLURM_ARRAY_TASK_COUNT"]
    static let kubernetes = "JOB_COMPLETION_INDEX"
    static let parallel = "PARALLEL_SEQ"
    /// The largest shard count (and index) read: as many shards as the largest cohort has users.
    static let maxCount = Simulation.maxUsers

    /// The shard given by `environment` (the process's), `count` being `--shard-count`.
    package static func shard(environment: [String: String], count: Int?) throws(SimulationError) -> Shard {
        let read = (slurm + [kubernetes, parallel, countVariable]).joined(separator: ", ")
        let found = (slurm + [kubernetes, parallel, countVariable]).compactMap { name in
            environment[name].map { "\(name)=\($0.prefix(40))" }
        }
        let foundText = found.isEmpty ? "none of them is set" : "found " + found.joined(separator: ", ")
        func fail(_ problem: String) -> SimulationError {
            SimulationError("--shard auto: \(problem) (read \(read); \(foundText))")
        }
        func number(_ name: String, from low: Int) throws(SimulationError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text), value >= low, value <= maxCount else {
                throw fail("\(name) must be a whole number from \(low) to \(maxCount), found \"\(text.prefix(40))\"")
            }
            return value
        }
        let given = try number(countVariable, from: 1)
        if let count, let given, count != given {
            throw fail("--shard-count \(count) and \(countVariable)=\(given) disagree; give one of them")
        }
        let statedCount = count ?? given
        let systems = [environment["SLURM_ARRAY_TASK_ID"] != nil, environment[kubernetes] != nil, environment[parallel] != nil]
        guard systems.filter({ $0 }).count <= 1 else {
            throw fail("the variables of more than one batch system are set, so which one numbers this task is unclear; give --shard i/n")
        }
        if let id = try number("SLURM_ARRAY_TASK_ID", from: 0) {
            guard let min = try number("SLURM_ARRAY_TASK_MIN", from: 0), let arrayCount = try number("SLURM_ARRAY_TASK_COUNT", from: 1)
            else {
                throw fail("a Slurm array task needs SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT besides SLURM_ARRAY_TASK_ID")
            }
            if let max = try number("SLURM_ARRAY_TASK_MAX", from: 0), max != min + arrayCount - 1 {
                throw fail(
                    "the array's tasks \(min)–\(max) are not \(arrayCount) consecutive numbers (an array with a step or a list); submit --array=\(min)-\(min + arrayCount - 1), or give --shard i/n"
                )
            }
            guard (min..<min + arrayCount).contains(id) else {
                throw fail("SLURM_ARRAY_TASK_ID \(id) is not one of the array's tasks \(min)–\(min + arrayCount - 1)")
            }
            if let statedCount, statedCount != arrayCount {
                throw fail("the Slurm array has \(arrayCount) tasks but the shard count given is \(statedCount)")
            }
            return Shard(index: id - min + 1, count: arrayCount)
        }
        let index: Int, name: String
        if let completion = try number(kubernetes, from: 0) {
            (index, name) = (completion + 1, "\(kubernetes) \(completion) (from 0)")
        } else if let sequence = try number(parallel, from: 1) {
            (index, name) = (sequence, "\(parallel) \(sequence) (from 1)")
        } else {
            throw fail(
                "no batch system's task number is set: run under a Slurm job array, a Kubernetes Indexed Job or GNU parallel, or give --shard i/n"
            )
        }
        guard let statedCount else {
            throw fail("\(name) gives this task's number but not the number of tasks; give --shard-count N or set \(countVariable)")
        }
        guard index <= statedCount else {
            throw fail("\(name) is task \(index), beyond the \(statedCount) shards given; run exactly \(statedCount) tasks")
        }
        return Shard(index: index, count: statedCount)
    }
}
