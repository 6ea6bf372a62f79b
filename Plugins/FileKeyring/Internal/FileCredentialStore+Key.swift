import Glibc

/// A key derived for one salt and work factor: 64 secret bytes (0..<32 the AES key, 32..<64 the key-check
/// material) and the 16-byte key check stored in the header.
final class DerivedKey: Sendable {
    let derivation: KeyringHeader.Derivation
    // SecretBytes is never written after the derivation that made it: immutable, so safe to share.
    nonisolated(unsafe) let secret: SecretBytes
    let check: [UInt8]

    init(derivation: KeyringHeader.Derivation, secret: SecretBytes, check: [UInt8]) {
        self.derivation = derivation
        self.secret = secret
        self.check = check
    }
}

extension FileCredentialStore {
    /// The key for a file's derivation: the cached one when the salt and work factor are the same, else a new
    /// derivation (one scrypt run, or hashing the key file). It is not cached here: the caller caches it with
    /// `remember(_:)` once the file's key check matched, so a tampered header (an attacker's salt and cost)
    /// never becomes the key `newKey()` hands to a new file.
    func key(for derivation: KeyringHeader.Derivation) throws(KeyringError) -> DerivedKey {
        if let cached = cachedKey, cached.derivation == derivation { return cached }
        return try derive(derivation)
    }

    /// Caches a key that opened a file (its key check matched) or that this store made for a new file.
    func remember(_ key: DerivedKey) {
        cachedKey = key
    }

    /// The key for a new file: the cached one (from a file that verified, or made here before) when it is of the
    /// configured kind, else a fresh salt with the configured work factor.
    func newKey() throws(KeyringError) -> DerivedKey {
        let kind: KeyringHeader.KDF = if case .passphrase = configuration.key { .scrypt } else { .keyFile }
        if let cached = cachedKey, cached.derivation.kdf == kind { return cached }
        guard let salt = KeyringCrypto.random(16) else {
            throw KeyringError(.fileSystem, path: configuration.path, message: "no random bytes for the salt")
        }
        let work = configuration.workFactor
        let derivation = KeyringHeader.Derivation(
            kdf: kind, log2N: kind == .scrypt ? work.log2N : 0, r: kind == .scrypt ? work.blockSize : 0,
            p: kind == .scrypt ? work.parallelism : 0, salt: salt)
        let key = try derive(derivation)
        remember(key)
        return key
    }

    private func derive(_ derivation: KeyringHeader.Derivation) throws(KeyringError) -> DerivedKey {
        let path = configuration.path
        let secret = SecretBytes(count: 64)
        switch (configuration.key, derivation.kdf) {
        case (.passphrase(let passphrase), .scrypt):
            let input = SecretBytes(copying: passphrase.utf8)
            let ok = input.withBytes { input in
                secret.withBytes { output in
                    KeyringCrypto.scrypt(
                        secret: UnsafeRawBufferPointer(input), salt: derivation.salt, log2N: derivation.log2N,
                        r: derivation.r, p: derivation.p, into: output)
                }
            }
            guard ok else { throw KeyringError(.fileSystem, path: path, message: "scrypt failed") }
        case (.keyFile(let keyPath), .keyFile):
            let reader = KeyringFile(path: keyPath, writeHook: nil)
            guard var bytes = try? reader.read(followingLinks: true), bytes.count >= 32 else {
                throw KeyringError(
                    .wrongKey, path: path, message: "the key file \(keyPath) is missing or shorter than 32 bytes")
            }
            let input = SecretBytes(copying: derivation.salt + bytes)
            bytes.wipe()
            let ok = input.withBytes { input in
                secret.withBytes { KeyringCrypto.digest(UnsafeRawBufferPointer(input), sha512: true, into: $0) }
            }
            guard ok else { throw KeyringError(.fileSystem, path: path, message: "SHA-512 failed") }
        case (.passphrase, _):
            throw KeyringError(
                .wrongKey, path: path, message: "this keyring is opened with a key file, not a passphrase")
        case (.keyFile, _):
            throw KeyringError(
                .wrongKey, path: path, message: "this keyring is opened with a passphrase, not a key file")
        }
        var digest = [UInt8](repeating: 0, count: 32)
        let ok = secret.withBytes(in: 32..<64) { material in
            digest.withUnsafeMutableBytes {
                KeyringCrypto.digest(UnsafeRawBufferPointer(material), sha512: false, into: $0)
            }
        }
        guard ok else { throw KeyringError(.fileSystem, path: path, message: "SHA-256 failed") }
        return DerivedKey(derivation: derivation, secret: secret, check: Array(digest[0..<16]))
    }
}
