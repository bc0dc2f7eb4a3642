// The child process of the SIGKILL fault test (RulesStoreTests/BulkKillTests.swift).
//
// Usage: StoreFaultChild <database path> <users> <days per batch> <batches> <pause batch> [bulk-load]
//
// Sets up a synthetic cohort, then writes `batches` bulk batches, each holding every user's next
// `days per batch` days in one transaction. After each commit it prints `committed <n>`. In batch
// `pause batch`, halfway through the transaction, it prints `midway <n>` and sleeps, so that the
// parent's SIGKILL lands while the transaction is open. With `bulk-load`, the store is opened
// with `StoreOptions.bulkLoad` (a rollback journal, as a simulation writes its new file).
import Foundation
import RulesModel
import RulesStore

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 6 || (arguments.count == 7 && arguments[6] == "bulk-load"), let users = Int(arguments[2]),
    let perBatch = Int(arguments[3]), let batches = Int(arguments[4]),
    let pauseBatch = Int(arguments[5]), users >= 1, perBatch >= 1
else {
    FileHandle.standardError.write(Data("usage: StoreFaultChild <db> <users> <days per batch> <batches> <pause batch> [bulk-load]\n".utf8))
    exit(2)
}

do {
    let store = try Store.open(path: arguments[1], options: StoreOptions(bulkLoad: arguments.count == 7))
    let cohort = SyntheticCohort(seed: 7, startDay: try DayID("2026-03-01"))
    let ids = (1...users).map { UserID(Int64($0)) }
    for user in ids { try cohort.setUp(store, user: user) }
    let tasks = Dictionary(uniqueKeysWithValues: ids.map { ($0, cohort.tasks(for: $0)) })
    say("ready")
    let writer = BulkWriter(store: store)
    for batch in 0..<batches {
        let days = try (batch * perBatch..<(batch + 1) * perBatch).flatMap { dayIndex in
            try ids.map { try cohort.userDay($0, dayIndex: dayIndex, tasks: tasks[$0]!) }
        }
        try writer.write(days) { index in
            if batch == pauseBatch && index == days.count / 2 {
                say("midway \(batch)")
                Thread.sleep(forTimeInterval: 60)
            }
        }
        say("committed \(batch)")
    }
    say("done")
} catch {
    FileHandle.standardError.write(Data("StoreFaultChild: \(error)\n".utf8))
    exit(1)
}
