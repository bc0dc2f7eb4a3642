/// `compare`'s differential half for Earned: two economies on the same generated histories
/// (`EconomyHistory`), replayed through the engine under each set, compared by `EconomyField`.
package typealias EconomyComparison = LineComparison<EconomyField>
