/// MD4 (RFC 1320), for NTLM's NT hash only. Written here because OpenSSL 3 keeps MD4 in its legacy provider,
/// which some distributions do not ship or load.
enum MD4 {
    /// The MD4 digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476)
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> shift)) }
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let base = block + index * 4
                words[index] = UInt32(padded[base]) | UInt32(padded[base + 1]) << 8
                    | UInt32(padded[base + 2]) << 16 | UInt32(padded[base + 3]) << 24
            }
            state = compress(state, words)
        }
        var digest: [UInt8] = []
        for word in [state.0, state.1, state.2, state.3] {
            for shift in stride(from: 0, to: 32, by: 8) { digest.append(UInt8(truncatingIfNeeded: word >> shift)) }
        }
        return digest
    }

    private static func compress(
        _ state: (UInt32, UInt32, UInt32, UInt32), _ x: [UInt32]
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        var (a, b, c, d) = state
        func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }
        let f: (UInt32, UInt32, UInt32) -> UInt32 = { x, y, z in x & y | ~x & z }
        let g: (UInt32, UInt32, UInt32) -> UInt32 = { x, y, z in x & y | x & z | y & z }
        let h: (UInt32, UInt32, UInt32) -> UInt32 = { x, y, z in x ^ y ^ z }
        for index in [0, 4, 8, 12] {
            a = rotate(a &+ f(b, c, d) &+ x[index], 3)
            d = rotate(d &+ f(a, b, c) &+ x[index + 1], 7)
            c = rotate(c &+ f(d, a, b) &+ x[index + 2], 11)
            b = rotate(b &+ f(c, d, a) &+ x[index + 3], 19)
        }
        for index in [0, 1, 2, 3] {
            a = rotate(a &+ g(b, c, d) &+ x[index] &+ 0x5A82_7999, 3)
            d = rotate(d &+ g(a, b, c) &+ x[index + 4] &+ 0x5A82_7999, 5)
            c = rotate(c &+ g(d, a, b) &+ x[index + 8] &+ 0x5A82_7999, 9)
            b = rotate(b &+ g(c, d, a) &+ x[index + 12] &+ 0x5A82_7999, 13)
        }
        for index in [0, 2, 1, 3] {
            a = rotate(a &+ h(b, c, d) &+ x[index] &+ 0x6ED9_EBA1, 3)
            d = rotate(d &+ h(a, b, c) &+ x[index + 8] &+ 0x6ED9_EBA1, 9)
            c = rotate(c &+ h(d, a, b) &+ x[index + 4] &+ 0x6ED9_EBA1, 11)
            b = rotate(b &+ h(c, d, a) &+ x[index + 12] &+ 0x6ED9_EBA1, 15)
        }
        return (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
