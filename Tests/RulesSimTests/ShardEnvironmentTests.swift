import Testing

@testable import RulesSim

/// `--shard auto`: the shard each batch system's task is, and a clear error when the environment
/// does not say.
@Suite struct ShardEnvironmentTests {
    func shard(_ environment: [String: String], count: Int? = nil) throws -> Shard {
        try ShardEnvironment.shard(environment: environment, count: count)
    }

    func message(_ environment: [String: String], count: Int? = nil) -> String {
        do {
            _ = try ShardEnvironment.shard(environment: environment, count: count)
            return "no error"
        } catch {
            return error.message
        }
    }

    @Test func slurmArraysNumberFromTheirFirstTask() throws {
        let array = ["SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"]
        #expect(try shard(array.merging(["SLURM_ARRAY_TASK_ID": "0"]) { $1 }) == Shard(index: 1, count: 4))
        #expect(try shard(array.merging(["SLURM_ARRAY_TASK_ID": "3"]) { $1 }) == Shard(index: 4, count: 4))
        // --array=5-7: task 6 is the second of three.
        let late = ["SLURM_ARRAY_TASK_ID": "6", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "3"]
        #expect(try shard(late) == Shard(index: 2, count: 3))
        #expect(try shard(late, count: 3) == Shard(index: 2, count: 3))
        #expect(
            message(late, count: 4).hasPrefix(
                "--shard auto: the Slurm array has 3 tasks but the shard count given is 4 (read SLURM_ARRAY_TASK_ID"))
        // --array=0-8:2 has 5 tasks, not consecutive.
        let stepped = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_COUNT": "5"]
        #expect(message(stepped).hasPrefix("--shard auto: the array's tasks 0–8 are not 5 consecutive numbers"))
        #expect(
            message(["SLURM_ARRAY_TASK_ID": "2"])
                == "--shard auto: a Slurm array task needs SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT besides SLURM_ARRAY_TASK_ID (read SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX, PARALLEL_SEQ, RULESRUN_SHARD_COUNT; found SLURM_ARRAY_TASK_ID=2)"
        )
    }

    @Test func kubernetesAndParallelTakeTheCountOnce() throws {
        #expect(try shard(["JOB_COMPLETION_INDEX": "0"], count: 8) == Shard(index: 1, count: 8))
        #expect(try shard(["JOB_COMPLETION_INDEX": "7", "RULESRUN_SHARD_COUNT": "8"]) == Shard(index: 8, count: 8))
        #expect(try shard(["PARALLEL_SEQ": "3"], count: 4) == Shard(index: 3, count: 4))
        #expect(
            message(["JOB_COMPLETION_INDEX": "8"], count: 8).hasPrefix(
                "--shard auto: JOB_COMPLETION_INDEX 8 (from 0) is task 9, beyond the 8 shards given"))
        #expect(
            message(["PARALLEL_SEQ": "1"]).hasPrefix(
                "--shard auto: PARALLEL_SEQ 1 (from 1) gives this task's number but not the number of tasks; give --shard-count N or set RULESRUN_SHARD_COUNT"
            ))
        #expect(
            message(["PARALLEL_SEQ": "2", "RULESRUN_SHARD_COUNT": "4"], count: 5).hasPrefix(
                "--shard auto: --shard-count 5 and RULESRUN_SHARD_COUNT=4 disagree"))
        #expect(
            message(["PARALLEL_SEQ": "-1"], count: 4).hasPrefix(
                "--shard auto: PARALLEL_SEQ must be a whole number from 1 to 10000000, found \"-1\""))
    }

    @Test func aMissingOrMixedEnvironmentIsNamed() {
        #expect(
            message([:])
                == "--shard auto: no batch system's task number is set: run under a Slurm job array, a Kubernetes Indexed Job or GNU parallel, or give --shard i/n (read SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT, JOB_COMPLETION_INDEX, PARALLEL_SEQ, RULESRUN_SHARD_COUNT; none of them is set)"
        )
        #expect(
            message(["PARALLEL_SEQ": "2", "JOB_COMPLETION_INDEX": "1"], count: 4).hasPrefix(
                "--shard auto: the variables of more than one batch system are set"))
    }
}
