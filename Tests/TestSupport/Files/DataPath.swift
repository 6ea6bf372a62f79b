import FoundationEssentials

/// Bodies and scratch files for the tests that move data: deterministic bytes, compressible text and temporary
/// directories. The client and gzip helpers that need the stack are extensions beside their users
/// (`InteropTests/Support`, the `CodecTestSupport` target).
package enum DataPath {
    /// Deterministic pseudo-random bytes.
    package static func bytes(_ count: Int, seed: UInt32 = 0x9E37_79B9) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// Compressible text of about `count` bytes.
    package static func text(_ count: Int) -> [UInt8] {
        var text: [UInt8] = []
        var line = 0
        while text.count < count {
            text += Array("line \(line): the quick brown fox jumps over the lazy dog\n".utf8)
            line += 1
        }
        return Array(text.prefix(count))
    }

    /// A fresh temporary directory; remove it with `FileManager.default.removeItem`.
    package static func directory() throws -> String {
        try makeTemporaryDirectory(prefix: "asikit-data")
    }

    package static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    package static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(filePath: path))
    }

    package static func listing(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }
}
