import Testing

@testable import RulesModel

/// `FieldCheck.everyByte(of:in:)` checks eight bytes at a time; it must answer as a byte-by-byte
/// check does, for every byte value at every position of a word and in the tail.
@Suite struct FieldCheckBytesTests {
    static let ranges: [ClosedRange<UInt8>] = [0x21...0x7E, 0x20...0x7E, 0x20...0x20, 0x00...0x7F, 0x30...0x39]

    @Test func everyByteValueAtEveryPositionAnswersAsAByteByByteCheck() {
        for range in Self.ranges {
            for length in [1, 7, 8, 9, 16, 17, 36] {
                for position in 0..<length {
                    for byte in UInt8.min...UInt8.max {
                        var bytes = [UInt8](repeating: range.lowerBound, count: length)
                        bytes[position] = byte
                        let answer = bytes.withUnsafeBytes { FieldCheck.everyByte(of: $0, in: range) }
                        if answer != range.contains(byte) { Issue.record("\(range) \(bytes): \(answer)") }
                    }
                }
            }
        }
    }

    @Test func randomBytesAnswerAsAByteByByteCheck() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let range = Self.ranges.randomElement(using: &generator)!
            let length = Int.random(in: 0...40, using: &generator)
            // Mostly bytes in the range, so that the answer is often yes.
            let bytes = (0..<length).map { _ in
                Int.random(in: 0..<8, using: &generator) == 0
                    ? UInt8.random(in: .min ... .max, using: &generator) : UInt8.random(in: range, using: &generator)
            }
            let answer = bytes.withUnsafeBytes { FieldCheck.everyByte(of: $0, in: range) }
            if answer != bytes.allSatisfy(range.contains) { Issue.record("\(range) \(bytes): \(answer)") }
        }
    }

    @Test func stringsAreCheckedByTheirUTF8Bytes() {
        #expect(FieldCheck.everyByte(of: "attempt-0f3a9c", in: 0x21...0x7E))
        #expect(!FieldCheck.everyByte(of: "has space", in: 0x21...0x7E))
        #expect(!FieldCheck.everyByte(of: "Zürich-identifier-longer-than-8", in: 0x21...0x7E))
        #expect(FieldCheck.everyByte(of: "", in: 0x21...0x7E))
        #expect(FieldCheck.everyByte(of: "        ", in: 0x20...0x20))
    }
}
