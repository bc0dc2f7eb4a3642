/// FNV-1a, 64 bits: a stable digest of the inputs (not for security). Each `add` ends with a byte
/// of its own, so that `add("ab"); add("c")` and `add("a"); add("bc")` differ.
package struct FNV64: Sendable {
    private var value: UInt64 = 0xcbf2_9ce4_8422_2325

    package init() {}

    package mutating func add(_ bytes: some Collection<UInt8>) {
        // Over contiguous storage when there is some (a debug build walks an index at a time slowly).
        let hashed: Void? = bytes.withContiguousStorageIfAvailable { buffer in for byte in buffer { mix(byte) } }
        if hashed == nil { for byte in bytes { mix(byte) } }
        mix(0xFF)
    }

    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
    }

    private mutating func mix(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    package var digest: UInt64 { value }

    /// The digest as 16 hexadecimal digits.
    package var hex: String {
        let s = String(value, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
