/// Synthetic cohorts run through the engine (`simulate`), and rule sets compared on the same
/// generated histories (`compare`).
package enum RulesSim {}
