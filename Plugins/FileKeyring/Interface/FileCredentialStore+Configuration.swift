extension FileCredentialStore {
    /// Where the keyring's key comes from. Its `description` never shows the secret.
    public enum KeySource: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// A passphrase, stretched with scrypt and the file's random salt.
        case passphrase(String)
        /// A key file: at least 32 bytes of secret (for example `head -c 32 /dev/urandom`), hashed with SHA-512
        /// into the encryption key and the key check. No stretching: the file must be random, not a password.
        case keyFile(path: String)

        /// `passphrase(<redacted>)` or `keyFile(<path>)`.
        public var description: String {
            switch self {
            case .passphrase: "passphrase(<redacted>)"
            case .keyFile(let path): "keyFile(\(path))"
            }
        }
        /// Same as ``description``.
        public var debugDescription: String { description }
        /// No children, so `dump` and debuggers show ``description`` only.
        public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
    }

    /// scrypt's cost parameters for new keyrings; an existing keyring is opened with the ones stored in it, as
    /// long as they are inside the same ranges (a file whose header asks for more, or for less, is refused as
    /// damaged before any derivation: a raised cost would be a denial of service, a lowered one a downgrade).
    public struct WorkFactor: Sendable, Hashable {
        /// log2 of scrypt's N (CPU and memory cost). Default 14: 16 MiB and tens of milliseconds on one idle core.
        public var log2N: UInt8
        /// scrypt's block size r. Default 8.
        public var blockSize: UInt8
        /// scrypt's parallelism p. Default 1.
        public var parallelism: UInt8

        /// Creates a work factor.
        /// - Parameters:
        ///   - log2N: log2 of N, from 10 to 20.
        ///   - blockSize: r, from 1 to 16.
        ///   - parallelism: p, from 1 to 4.
        ///
        /// scrypt's memory, 128 · N · r bytes, must also stay at most 256 MiB (so N = 2^20 allows r ≤ 2, and
        /// r = 8 allows N ≤ 2^18); ``FileCredentialStore/init(configuration:)`` refuses other values.
        public init(log2N: UInt8 = 14, blockSize: UInt8 = 8, parallelism: UInt8 = 1) {
            self.log2N = log2N
            self.blockSize = blockSize
            self.parallelism = parallelism
        }

        /// The default: N = 2^14, r = 8, p = 1.
        public static let standard = WorkFactor()

        /// The most memory one derivation may need, 128 · N · r bytes: 256 MiB.
        static let maximumMemory = 256 << 20

        /// Whether the values are inside the ranges this library writes and therefore reads: the same check
        /// guards a new keyring's configuration and every header read from disk.
        var isValid: Bool {
            guard (10...20).contains(log2N), (1...16).contains(blockSize), (1...4).contains(parallelism) else {
                return false
            }
            return (128 << Int(log2N)) * Int(blockSize) <= Self.maximumMemory
        }
    }

    /// Settings for a ``FileCredentialStore``.
    public struct Configuration: Sendable, CustomStringConvertible {
        /// The keyring file. Its directory must exist; the file is created (mode 0600) on the first save, with a
        /// sidecar lock file `<path>.lock` (also 0600) beside it.
        public var path: String
        /// Where the key comes from.
        public var key: KeySource
        /// scrypt's cost for a new keyring (ignored for key files and for existing keyrings).
        public var workFactor: WorkFactor

        /// Creates a configuration.
        /// - Parameters:
        ///   - path: The keyring file.
        ///   - key: The passphrase or key file.
        ///   - workFactor: scrypt's cost for a new keyring.
        public init(path: String, key: KeySource, workFactor: WorkFactor = .standard) {
            self.path = path
            self.key = key
            self.workFactor = workFactor
        }

        /// The path and key source, never the secret.
        public var description: String { "FileCredentialStore.Configuration(path: \(path), key: \(key))" }
    }
}
