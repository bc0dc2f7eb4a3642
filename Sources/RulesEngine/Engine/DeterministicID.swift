import Foundation

/// UUIDs derived from names, so that the same events give the same database, byte for byte.
enum DeterministicID {
    /// A version-4-shaped UUID from 128 bits of two FNV-1a hashes of `parts` joined by U+001F.
    static func uuid(_ parts: String...) -> UUID { uuid(parts) }

    /// `uuid(parts).uuidString.lowercased()`, the ids of Earned's rows, written straight from the
    /// UUID's bytes (`uuidString` formats through `snprintf`: 1 % of an in-memory simulation).
    static func text(_ parts: String...) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid(parts).uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var n = 0
                var i = 0
                while i < bytes.count {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[n] = UInt8(ascii: "-")
                        n += 1
                    }
                    out[n] = digits[Int(bytes[i] >> 4)]
                    out[n + 1] = digits[Int(bytes[i] & 0x0F)]
                    n += 2
                    i += 1
                }
                return n
            }
        }
    }

    private static func uuid(_ parts: [String]) -> UUID {
        var state = Hash()
        for (i, part) in parts.enumerated() {
            if i > 0 { state.mix(0x1F) }
            // Over the string's contiguous bytes (walking the UTF-8 view index by index cost as much
            // as the hash itself), by index (a debug build's iterator cost as much again).
            let hashed = part.utf8.withContiguousStorageIfAvailable { [state] bytes in
                var mixed = state
                var j = 0
                while j < bytes.count {
                    mixed.mix(bytes[j])
                    j += 1
                }
                return mixed
            }
            if let hashed { state = hashed } else { for byte in part.utf8 { state.mix(byte) } }
        }
        let (a, b) = (state.a, state.b)
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for i in 0..<8 {
                bytes[i] = UInt8(truncatingIfNeeded: a >> (8 * i))
                bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (8 * i))
            }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
        }
        return UUID(uuid: uuid)
    }

    /// The two FNV-1a states, the second also fed by the first.
    private struct Hash {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325
        var b: UInt64 = 0x8422_2325_cbf2_9ce4

        @inline(__always)
        mutating func mix(_ byte: UInt8) {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            b = b &+ (a >> 29)
        }
    }
}
