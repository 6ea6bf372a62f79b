import Glibc

/// Building and comparing test bodies of many megabytes without per-byte generic code.
///
/// Test targets are built for debugging, where `Array(chunks.joined())` or `==` on two 64 MiB arrays walks every
/// byte through generic witnesses: minutes of one core. A synchronous test doing that holds one of the
/// cooperative pool's two threads on CI the whole time, and other tests' resumed tasks wait behind it: a TLS
/// handshake that started before the wait then finds its deadline passed. These copy and compare with
/// `memcpy` and `memcmp`.
package enum LargeBytes {
    /// `chunk` repeated `times` times.
    /// - Parameters:
    ///   - chunk: The bytes to repeat.
    ///   - times: How many times.
    /// - Returns: `times × chunk.count` bytes.
    package static func repeated(_ chunk: [UInt8], times: Int) -> [UInt8] {
        let total = chunk.count * times
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            chunk.withUnsafeBytes { source in
                guard let base = source.baseAddress, !source.isEmpty else { return }
                for index in 0..<times {
                    memcpy(buffer.baseAddress! + index * source.count, base, source.count)
                }
            }
            initialized = total
        }
    }

    /// Whether `bytes` equals `expected`, byte for byte.
    /// - Parameters:
    ///   - bytes: What arrived.
    ///   - expected: What should have.
    /// - Returns: Whether both have the same length and bytes.
    package static func equal(_ bytes: [UInt8], _ expected: [UInt8]) -> Bool {
        guard bytes.count == expected.count else { return false }
        return bytes.withUnsafeBytes { left in
            expected.withUnsafeBytes { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    /// Whether `bytes` is there and equals `expected`, byte for byte (for a file that may be missing).
    /// - Parameters:
    ///   - bytes: What was read, or `nil`.
    ///   - expected: What should have been.
    /// - Returns: Whether `bytes` is not `nil` and equal to `expected`.
    package static func equal(_ bytes: [UInt8]?, _ expected: [UInt8]) -> Bool {
        bytes.map { equal($0, expected) } ?? false
    }
}
