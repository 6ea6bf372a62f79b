/// Hexadecimal digits both ways, for percent-decoding, chunk sizes, CSS escapes and digests. `package`: the core,
/// the transport, S3, WebPage, HTTPAuthentication and CloudFiles share it.
package enum Hex {
    /// The value of one hexadecimal digit (`0-9`, `a-f`, `A-F`), or `nil`.
    /// - Parameter byte: An ASCII byte.
    /// - Returns: 0 to 15, or `nil` for any other byte.
    @inlinable @inline(__always)
    package static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte &- 0x30
        case 0x41...0x46: byte &- 0x41 &+ 10
        case 0x61...0x66: byte &- 0x61 &+ 10
        default: nil
        }
    }

    /// Lower-case hexadecimal, two digits a byte.
    /// - Parameter bytes: Any bytes, such as a digest.
    /// - Returns: For example `"00ff1a"`.
    package static func lowercase(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            digits.withUTF8Buffer { digits in
                for (index, byte) in bytes.enumerated() {
                    buffer[2 * index] = digits[Int(byte >> 4)]
                    buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
            }
            return bytes.count * 2
        }
    }

    /// Decodes `%XX` escapes; anything else, including a malformed escape, stays as it is (S3's canonical URI,
    /// WebPage's local names).
    /// - Parameter text: Percent-encoded text.
    /// - Returns: The decoded bytes.
    package static func percentDecoded(_ text: some StringProtocol) -> [UInt8] {
        let bytes = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = value(of: bytes[index + 1]), let low = value(of: bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
