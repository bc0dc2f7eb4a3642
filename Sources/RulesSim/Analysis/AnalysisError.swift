/// Why an analysis could not be made: moments that are not what `MetricMoments.json` writes (the
/// message names the field and what was expected), or arms that cannot be compared (too few users,
/// no denominator).
package struct AnalysisError: Error, CustomStringConvertible, Sendable, Equatable {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
