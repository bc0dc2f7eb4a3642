/// `compare`'s differential half for the habit tracker: two streak policies on the same generated
/// histories (`HabitHistory`: completions, skips, freezes, unchecks, backfills), replayed through
/// the engine under each set, compared by `HabitField`.
package typealias HabitComparison = LineComparison<HabitField>
