import FoundationEssentials

/// The public keys a server may present, checked after the normal certificate validation (public-key pinning,
/// curl's `--pinnedpubkey`).
///
/// A pin is a SHA-256 digest of the server certificate's DER `SubjectPublicKeyInfo` (as curl, HPKP and OkHttp
/// compute it), or the whole DER `SubjectPublicKeyInfo` (curl's file form). The server passes when its leaf
/// certificate's key matches any pin. Pins add to validation and never replace it: an untrusted or expired chain
/// still fails with ``ClientError/Code/certificateInvalid`` before the pins are looked at; with validation off
/// (``TLSOptions/validatesCertificate``), the pins are still checked, as curl checks them under `-k`.
///
/// A mismatch fails the connection with ``ClientError/Code/publicKeyPinMismatch`` before any request byte is sent.
///
/// ```swift
/// let pins = try PublicKeyPins(curlPinnedPublicKey: "sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE=")
/// request.options.tls.pinnedPublicKeys = pins
/// ```
public struct PublicKeyPins: Sendable, Hashable, CustomStringConvertible {
    /// SHA-256 digests (32 bytes each) of DER `SubjectPublicKeyInfo` structures.
    public var sha256Digests: Set<[UInt8]>
    /// Whole DER `SubjectPublicKeyInfo` structures, compared byte for byte.
    public var publicKeys: Set<[UInt8]>

    /// Creates pins from digests and keys.
    /// - Parameters:
    ///   - sha256Digests: SHA-256 digests of DER `SubjectPublicKeyInfo` structures, 32 bytes each.
    ///   - publicKeys: DER `SubjectPublicKeyInfo` structures.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when a digest is not 32 bytes or
    ///   there is no pin at all (an empty pin set would refuse every server).
    public init(sha256Digests: Set<[UInt8]> = [], publicKeys: Set<[UInt8]> = []) throws {
        guard sha256Digests.allSatisfy({ $0.count == 32 }) else {
            throw Self.invalid("a SHA-256 pin must be 32 bytes")
        }
        guard !sha256Digests.isEmpty || !publicKeys.isEmpty else { throw Self.invalid("no pin given") }
        self.sha256Digests = sha256Digests
        self.publicKeys = publicKeys
    }

    /// Reads curl's `--pinnedpubkey` argument: `sha256//BASE64` pins separated by `;`, or else the path of a
    /// PEM (`-----BEGIN PUBLIC KEY-----`) or DER public-key file.
    /// - Parameter argument: The argument.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` for a pin that is not base64 of 32
    ///   bytes, or a file that cannot be read or holds no public key.
    public init(curlPinnedPublicKey argument: String) throws {
        if argument.hasPrefix("sha256//") {
            var digests: Set<[UInt8]> = []
            for pin in argument.split(separator: ";", omittingEmptySubsequences: true) {
                let text = String(pin.filter { $0 != " " && $0 != "\t" })
                guard text.hasPrefix("sha256//"), let bytes = Data(base64Encoded: String(text.dropFirst(8))),
                    bytes.count == 32
                else { throw Self.invalid("\(text) is not sha256// and the base64 of 32 bytes") }
                digests.insert(Array(bytes))
            }
            try self.init(sha256Digests: digests)
        } else {
            try self.init(contentsOfFile: argument)
        }
    }

    /// Reads a public key from a PEM (`-----BEGIN PUBLIC KEY-----`) or DER file, as curl's `--pinnedpubkey FILE`.
    /// - Parameter path: The file's path.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when the file cannot be read or
    ///   holds no public key.
    public init(contentsOfFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), !data.isEmpty, data.count <= 1 << 20 else {
            throw Self.invalid("cannot read the public key file \(path)")
        }
        // Lines without blanks (the markers' inner spaces go too, so they are compared without them).
        let lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.filter { !$0.isWhitespace } }
        if let start = lines.firstIndex(of: "-----BEGINPUBLICKEY-----") {
            guard let stop = lines[start...].firstIndex(of: "-----ENDPUBLICKEY-----"),
                let der = Data(base64Encoded: lines[(start + 1)..<stop].joined())
            else { throw Self.invalid("\(path) holds a malformed PEM public key") }
            try self.init(publicKeys: [Array(der)])
        } else {
            // DER: a SubjectPublicKeyInfo is a SEQUENCE (0x30); anything else is not a key.
            guard data.first == 0x30 else { throw Self.invalid("\(path) holds no PEM or DER public key") }
            try self.init(publicKeys: [Array(data)])
        }
    }

    /// Whether a server key passes: its DER `SubjectPublicKeyInfo` is pinned, or its SHA-256 digest is.
    /// - Parameters:
    ///   - publicKey: The DER `SubjectPublicKeyInfo` of the server's leaf certificate.
    ///   - sha256: That structure's SHA-256 digest.
    /// - Returns: `true` when any pin matches.
    public func matches(publicKey: [UInt8], sha256: [UInt8]) -> Bool {
        publicKeys.contains(publicKey) || sha256Digests.contains(sha256)
    }

    /// The pins in curl's form (`sha256//BASE64;…`), keys given whole as `key(N bytes)`; pins are not secret.
    public var description: String {
        let digests = sha256Digests.map { "sha256//" + Data($0).base64EncodedString() }.sorted()
        let keys = publicKeys.map { "key(\($0.count) bytes)" }.sorted()
        return (digests + keys).joined(separator: ";")
    }

    private static func invalid(_ message: String) -> ClientError {
        ClientError(.invalidConfiguration, message: "Public-key pins: " + message)
    }
}
