/// The figures of one ``StoreBenchmark`` run (plain numbers, for `rulesrun bench`).
package struct StoreBenchmarkResult: Hashable, Sendable {
    /// Rows written by each path (the same rows).
    package var rows: Int
    package var userDays: Int
    /// Rows per second of ``BulkWriter`` (validation included).
    package var bulkRowsPerSecond: Double
    /// Rows per second of a raw prepared-`INSERT`/`UPDATE` loop of the same rows, no validation.
    package var rawRowsPerSecond: Double
    /// `bulkRowsPerSecond / rawRowsPerSecond` (target ≥ 0.5).
    package var bulkToRawRatio: Double { rawRowsPerSecond > 0 ? bulkRowsPerSecond / rawRowsPerSecond : 0 }
    /// Bytes of Pressure's commitment and notification tables and their indexes after `VACUUM`,
    /// for one user-year (365 commitments, 1,095 notifications); budget 200 KB.
    package var pressureUserYearBytes: Int
    /// Growth of the whole file (after `VACUUM`) from an empty user to that user-year.
    package var pressureUserYearFileGrowthBytes: Int
    /// Bytes of the habit tracker's task and completion tables and their indexes after `VACUUM`,
    /// for 50 tasks × 365 days of completions (18,250 rows); budget 1 MB.
    package var habitUserYearBytes: Int
    package var habitUserYearFileGrowthBytes: Int
    /// Whether the table sizes come from SQLite's `dbstat` (else they are the file growth).
    package var measuredWithDBStat: Bool

    package init(
        rows: Int, userDays: Int, bulkRowsPerSecond: Double, rawRowsPerSecond: Double, pressureUserYearBytes: Int,
        pressureUserYearFileGrowthBytes: Int, habitUserYearBytes: Int, habitUserYearFileGrowthBytes: Int, measuredWithDBStat: Bool
    ) {
        self.rows = rows
        self.userDays = userDays
        self.bulkRowsPerSecond = bulkRowsPerSecond
        self.rawRowsPerSecond = rawRowsPerSecond
        self.pressureUserYearBytes = pressureUserYearBytes
        self.pressureUserYearFileGrowthBytes = pressureUserYearFileGrowthBytes
        self.habitUserYearBytes = habitUserYearBytes
        self.habitUserYearFileGrowthBytes = habitUserYearFileGrowthBytes
        self.measuredWithDBStat = measuredWithDBStat
    }
}
