public import HTTPCore
import Synchronization

/// A ``CredentialStore`` kept in one encrypted file: ASIHTTPRequest's Keychain persistence
/// (`useKeychainPersistence`) on Linux. Plug it in as `Client(persistentCredentials:)`; requests that set
/// ``RequestOptions/usesPersistentCredentialStore`` read from it after a challenge and save what the server
/// accepted.
///
/// The file is AES-256-GCM encrypted with a key derived from a passphrase (scrypt with a random salt stored in the
/// file; N = 2^14, r = 8, p = 1 by default, tens of milliseconds) or read from a key file. It is created with mode
/// 0600 and replaced atomically (temporary file, `fsync`, `rename`, directory `fsync`) under an exclusive `flock`
/// on `<path>.lock`; every change re-reads the file inside the lock, so two processes saving at once keep both
/// entries, and a writer killed at any point leaves the previous file intact. The format is documented in the
/// module's `Docs.docc/index.md`.
///
/// A wrong passphrase or key file throws ``ClientError/Code/invalidConfiguration`` and a damaged or tampered file
/// throws ``ClientError/Code/storageFailed``, each with a ``KeyringError`` as the underlying error; the file is
/// never modified by a failed open. No secret appears in a description, an error or a log; the derived key lives
/// in memory excluded from core dumps and is wiped when the store is released.
///
/// The first operation derives the key (one scrypt run) on the calling task; later ones reuse it.
public final class FileCredentialStore: CredentialStore, CustomStringConvertible {
    /// The points of a write where a test hook runs (`halfWritten`: half the temporary file is written;
    /// `beforeRename`: it is complete and synced; `renamed`: it replaced the keyring).
    package enum WriteStage: Sendable { case halfWritten, beforeRename, renamed }

    /// The store's settings.
    public let configuration: Configuration
    private let file: KeyringFile
    private let derived = Mutex<DerivedKey?>(nil)

    /// The last derived key (the derivation is the slow part; a file keeps its salt across writes).
    var cachedKey: DerivedKey? {
        get { derived.withLock { $0 } }
        set { derived.withLock { $0 = newValue } }
    }

    /// Creates a store for a keyring file (created on the first save).
    /// - Parameter configuration: The path, key source and work factor.
    /// - Throws: ``ClientError/Code/invalidConfiguration`` for a work factor outside the format's ranges or an
    ///   empty passphrase.
    public convenience init(configuration: Configuration) throws {
        try self.init(configuration: configuration, writeHook: nil)
    }

    /// Creates a store with a hook called at fixed points of every write (for crash tests).
    package init(
        configuration: Configuration, writeHook: (@Sendable (WriteStage) -> Void)?
    ) throws {
        guard configuration.workFactor.isValid else {
            throw ClientError(.invalidConfiguration, stage: .credentials, message: "keyring: work factor out of range")
        }
        if case .passphrase(let passphrase) = configuration.key, passphrase.isEmpty {
            throw ClientError(.invalidConfiguration, stage: .credentials, message: "keyring: the passphrase is empty")
        }
        self.configuration = configuration
        file = KeyringFile(path: configuration.path, writeHook: writeHook)
    }

    /// Returns the saved credential that best matches the scope by the core's rule
    /// (``CredentialScope/bestMatch(among:scope:)``), reading the file as it is now.
    /// - Parameter scope: Where the credential is needed.
    /// - Returns: The credential, or `nil` (also when the file does not exist yet).
    /// - Throws: ``ClientError`` with a ``KeyringError``: a wrong key, a damaged file, or a read error.
    public func credential(for scope: CredentialScope) async throws -> Credential? {
        let entries: [KeyringPayload.Entry] = try mapped { try load()?.entries ?? [] }
        return scope.bestMatch(among: entries, scope: \.scope)?.credential
    }

    /// Saves a credential for exactly this scope, replacing what was there; saving the same credential again
    /// does not rewrite the file.
    /// - Parameters:
    ///   - credential: The credential.
    ///   - scope: Where it applies.
    /// - Throws: ``ClientError`` with a ``KeyringError``; the file is then unchanged. A port outside 0...65535,
    ///   which the file could not give back, throws ``ClientError/Code/invalidConfiguration``.
    public func save(_ credential: Credential, for scope: CredentialScope) async throws {
        guard (0...65_535).contains(scope.port) else {
            throw ClientError(
                .invalidConfiguration, stage: .credentials, message: "keyring: the port \(scope.port) is not 0...65535")
        }
        try await update { entries in
            if let index = entries.firstIndex(where: { $0.scope == scope }) {
                if entries[index].credential == credential { return false }
                entries[index].credential = credential
            } else {
                entries.append((scope, credential))
            }
            return true
        }
    }

    /// Removes the credential saved for exactly this scope; a missing one is not an error.
    /// - Parameter scope: The scope.
    /// - Throws: ``ClientError`` with a ``KeyringError``; the file is then unchanged.
    public func removeCredential(for scope: CredentialScope) async throws {
        try await update { entries in
            let before = entries.count
            entries.removeAll { $0.scope == scope }
            return entries.count != before
        }
    }

    /// Removes every credential (the file stays, empty, so its key check still guards it).
    /// - Throws: ``ClientError`` with a ``KeyringError``; the file is then unchanged.
    public func removeAll() async throws {
        try await update { entries in
            guard !entries.isEmpty else { return false }
            entries.removeAll()
            return true
        }
    }

    /// Opens the keyring now and checks the key, so a wrong passphrase is reported before any request.
    /// A file that does not exist yet is fine.
    /// - Throws: ``ClientError`` with a ``KeyringError`` for a wrong key, a damaged file or a read error.
    public func validate() async throws {
        _ = try mapped { try load() }
    }

    /// `FileCredentialStore(<path>)`: never the key or a credential.
    public var description: String { "FileCredentialStore(\(configuration.path))" }

    // MARK: - Reading and writing

    private func mapped<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as KeyringError {
            throw error.clientError
        }
    }

    /// Re-reads the file under the lock, applies `change`, and writes the result when `change` returns `true`.
    private func update(_ change: (inout [KeyringPayload.Entry]) -> Bool) async throws {
        do {
            try await file.withLock {
                let loaded = try load()
                var entries = loaded?.entries ?? []
                guard change(&entries) else { return }
                try write(entries, key: loaded?.key ?? newKey())
            }
        } catch let error as KeyringError {
            throw error.clientError
        }
    }

    private func load() throws(KeyringError) -> (entries: [KeyringPayload.Entry], key: DerivedKey)? {
        guard let bytes = try file.read() else { return nil }
        let header: KeyringHeader
        do {
            header = try KeyringHeader(parsing: bytes)
        } catch .unsupportedVersion {
            throw KeyringError(.unsupportedVersion, path: file.path, message: "the keyring format is newer than this")
        } catch .workFactor {
            let (log2N, r, p) = (bytes[10], bytes[11], bytes[12])
            throw KeyringError(
                .damaged, path: file.path,
                message: "the header's scrypt cost (N = 2^\(log2N), r = \(r), p = \(p)) is outside what this library "
                    + "writes (N 2^10...2^20, r 1...16, p 1...4, at most 256 MiB); refused before any derivation")
        } catch {
            throw KeyringError(.damaged, path: file.path, message: "the file is not a keyring or is truncated")
        }
        let key = try key(for: header.derivation)
        guard key.check == header.check else {
            throw KeyringError(
                .wrongKey, path: file.path,
                message: header.kdf == .scrypt
                    ? "wrong passphrase (the key check does not match)"
                    : "wrong key file (the key check does not match)")
        }
        remember(key)
        let sealed = bytes[KeyringHeader.size...]
        let aad = Array(bytes[0..<KeyringHeader.size])
        guard
            var plaintext = key.secret.withBytes(
                in: 0..<KeyringCrypto.keyLength,
                {
                    KeyringCrypto.open(sealed, key: UnsafeRawBufferPointer($0), nonce: header.nonce, aad: aad)
                })
        else {
            throw KeyringError(
                .damaged, path: file.path, message: "the file was changed or is corrupt (authentication failed)")
        }
        defer { plaintext.wipe() }
        guard let entries = KeyringPayload.decode(plaintext, version: header.version) else {
            throw KeyringError(.damaged, path: file.path, message: "the decrypted contents are malformed")
        }
        return (entries, key)
    }

    private func write(_ entries: [KeyringPayload.Entry], key: DerivedKey) throws(KeyringError) {
        guard let nonce = KeyringCrypto.random(KeyringCrypto.nonceLength) else {
            throw KeyringError(.fileSystem, path: file.path, message: "no random bytes for the nonce")
        }
        var plaintext = KeyringPayload.encode(entries)
        defer { plaintext.wipe() }
        let header = KeyringHeader(derivation: key.derivation, check: key.check, nonce: nonce, length: plaintext.count)
        let aad = header.bytes
        guard
            let sealed = key.secret.withBytes(
                in: 0..<KeyringCrypto.keyLength,
                {
                    KeyringCrypto.seal(plaintext, key: UnsafeRawBufferPointer($0), nonce: nonce, aad: aad)
                })
        else {
            throw KeyringError(.fileSystem, path: file.path, message: "encryption failed")
        }
        // A file over the read limit would be refused as damaged on the next open, with every entry in it.
        guard aad.count + sealed.count <= KeyringFile.maxBytes else {
            throw KeyringError(.fileSystem, path: file.path, message: "the keyring would be larger than 64 MiB")
        }
        try file.replace(with: aad + sealed)
    }
}
