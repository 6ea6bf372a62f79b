/// The fixed 64-byte header of a keyring file, format version 2 (documented in `Docs.docc/index.md`; version 1
/// has the same header and a payload without credential kinds, and is still read):
///
/// ```
/// 0   8  magic "ASIKEYRG"           32  16  key check: SHA-256(derived bytes 32..<64), first 16 bytes
/// 8   1  version (2, or 1)          48  12  AES-GCM nonce, fresh for every write
/// 9   1  kdf: 1 scrypt, 0 key file  60   4  ciphertext length, big-endian
/// 10  3  scrypt log2 N, r, p        64   n  ciphertext, then the 16-byte GCM tag
/// 13  3  zero                           (the whole header is the GCM additional data)
/// 16 16  salt
/// ```
struct KeyringHeader: Equatable {
    static let magic: [UInt8] = Array("ASIKEYRG".utf8)
    /// The version every write produces.
    static let version: UInt8 = 2
    /// The versions a reader accepts: 1 (written before credential kinds were stored) and 2.
    static let readableVersions: ClosedRange<UInt8> = 1...2
    static let size = 64

    enum KDF: UInt8 {
        case keyFile = 0
        case scrypt = 1
    }

    var version: UInt8
    var kdf: KDF
    var log2N: UInt8
    var r: UInt8
    var p: UInt8
    var salt: [UInt8]
    var check: [UInt8]
    var nonce: [UInt8]
    var length: UInt32

    /// What the key derivation depends on: a key derived for one header serves every header with the same value.
    struct Derivation: Equatable {
        var kdf: KDF
        var log2N: UInt8
        var r: UInt8
        var p: UInt8
        var salt: [UInt8]
    }

    var derivation: Derivation { Derivation(kdf: kdf, log2N: log2N, r: r, p: p, salt: salt) }

    var bytes: [UInt8] {
        var out = Self.magic
        out += [version, kdf.rawValue, log2N, r, p, 0, 0, 0]
        out += salt + check + nonce
        out += [
            UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
        ]
        return out
    }

    enum ParseError: Error { case notKeyring, unsupportedVersion, malformed, workFactor }

    /// Parses the header at the start of `file`.
    init(parsing file: [UInt8]) throws(ParseError) {
        guard file.count >= Self.size, Array(file[0..<8]) == Self.magic else { throw .notKeyring }
        guard Self.readableVersions.contains(file[8]) else { throw .unsupportedVersion }
        version = file[8]
        guard let kdf = KDF(rawValue: file[9]), file[13] == 0, file[14] == 0, file[15] == 0 else { throw .malformed }
        self.kdf = kdf
        (log2N, r, p) = (file[10], file[11], file[12])
        if kdf == .scrypt {
            // Checked before any derivation: whoever can write the file must not choose scrypt's cost.
            guard FileCredentialStore.WorkFactor(log2N: log2N, blockSize: r, parallelism: p).isValid else {
                throw .workFactor
            }
        }
        salt = Array(file[16..<32])
        check = Array(file[32..<48])
        nonce = Array(file[48..<60])
        length = file[60..<64].reduce(0) { $0 << 8 | UInt32($1) }
        guard file.count == Self.size + Int(length) + KeyringCrypto.tagLength else { throw .malformed }
    }

    init(derivation: Derivation, check: [UInt8], nonce: [UInt8], length: Int) {
        version = Self.version
        kdf = derivation.kdf
        (log2N, r, p) = (derivation.log2N, derivation.r, derivation.p)
        salt = derivation.salt
        self.check = check
        self.nonce = nonce
        self.length = UInt32(length)
    }
}
