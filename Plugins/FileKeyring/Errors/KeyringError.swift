import HTTPCore

/// Why a keyring file could not be opened or written. It travels as the ``ClientError/underlying`` error of the
/// ``ClientError`` a ``FileCredentialStore`` throws, so a caller can tell a wrong passphrase from a damaged file.
/// Its message names the file and the problem, never a secret.
public struct KeyringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case wrongKey, damaged, unsupportedVersion, fileSystem
        }
        private let base: Base

        /// The passphrase or key file does not open this keyring (its key check does not match).
        public static let wrongKey = Code(base: .wrongKey)
        /// The file is not a keyring, is truncated, or was changed after it was written (the AES-GCM tag does
        /// not verify although the key check matches).
        public static let damaged = Code(base: .damaged)
        /// The file was written by a newer version of the format.
        public static let unsupportedVersion = Code(base: .unsupportedVersion)
        /// A system call failed (open, read, write, fsync, rename, flock); ``KeyringError/errno`` says which error.
        public static let fileSystem = Code(base: .fileSystem)

        /// A stable name: `wrongKey`, `damaged`, `unsupportedVersion` or `fileSystem`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// The keyring's path.
    public var path: String
    /// A human-readable explanation (never a secret).
    public var message: String
    /// The `errno` for ``Code/fileSystem`` errors, else 0.
    public var errno: Int32

    /// Creates an error.
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - path: The keyring's path.
    ///   - message: The explanation, without secrets.
    ///   - errno: The system error, if any.
    public init(_ code: Code, path: String, message: String, errno: Int32 = 0) {
        self.code = code
        self.path = path
        self.message = message
        self.errno = errno
    }

    /// `keyring <path>: <message>`.
    public var description: String { "keyring \(path): \(message)" }

    /// The ``ClientError`` a store throws for this error: ``ClientError/Code/invalidConfiguration`` for a wrong
    /// key (the caller gave the wrong secret), ``ClientError/Code/storageFailed`` for everything else.
    var clientError: ClientError {
        ClientError(
            code == .wrongKey ? .invalidConfiguration : .storageFailed, stage: .credentials, message: description,
            underlying: self)
    }
}
