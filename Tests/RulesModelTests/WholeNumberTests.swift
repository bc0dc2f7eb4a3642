import RulesModel
import Testing

/// `WholeNumber`, the one conversion of a double into an integer: nil (or a message) instead of
/// the trap of `Int(x)` for an infinity, NaN or a magnitude past 2^53.
@Suite struct WholeNumberTests {
    @Test func onlyWholeNumbersBelow2To53AreConverted() {
        #expect(WholeNumber.exactly(100) == 100)
        #expect(WholeNumber.exactly(-0.0) == 0)
        #expect(WholeNumber.exactly(9_007_199_254_740_991) == 9_007_199_254_740_991)
        #expect(WholeNumber.exactly(-9_007_199_254_740_991) == -9_007_199_254_740_991)
        #expect(WholeNumber.exactly(9_007_199_254_740_992) == nil)
        #expect(WholeNumber.exactly(99.5) == nil)
        for value in [Double.infinity, -.infinity, .nan, 1e19, 1e300, -1e300, Double.greatestFiniteMagnitude] {
            #expect(WholeNumber.exactly(value) == nil, "\(value)")
            #expect(WholeNumber.rounded(value) == nil, "\(value)")
            #expect(WholeNumber.truncated(value) == nil, "\(value)")
        }
        #expect(WholeNumber.rounded(2.5) == 3)
        #expect(WholeNumber.truncated(-2.7) == -2)
    }

    @Test func aNumberIsWrittenWholeWhenItIsOne() {
        #expect(WholeNumber.text(100) == "100")
        #expect(WholeNumber.text(99.5) == "99.5")
        #expect(WholeNumber.text(1e300) == "1e+300")
        #expect(WholeNumber.text(.infinity) == "inf")
        #expect(WholeNumber.text(.nan) == "nan")
    }

    @Test func aCheckedConversionNamesWhatAndTheRange() throws {
        #expect(try WholeNumber.checked(42, in: 1...100, "--x") == 42)
        for (value, text) in [(1e300, "1e+300"), (.infinity, "inf"), (0.5, "0.5"), (101, "101")] as [(Double, String)] {
            do {
                _ = try WholeNumber.checked(value, in: 1...100, "--x")
                Issue.record("\(value) was accepted")
            } catch {
                #expect(error.message == "--x: expected a whole number from 1 to 100, found \(text)")
            }
        }
    }
}
