import FoundationEssentials
import Glibc
import HTTPCore
import Testing

/// `PublicKeyPins` reads curl's `--pinnedpubkey` forms: `sha256//` pins separated by `;`, or a PEM or DER key file.
@Suite struct PublicKeyPinsTests {
    /// An EC P-256 `SubjectPublicKeyInfo` (a public key: nothing secret), as `openssl pkey -pubout` writes it.
    static let pem = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEL2+S0OetoVE0NRgGTWg2/K1rcDMT
        ASxP0zq9azyZ2triX2jLmoEfJZypStY2PaitlyhVwKthFsQbWdMh+NGUdw==
        -----END PUBLIC KEY-----

        """
    static var der: [UInt8] {
        Array(Data(base64Encoded: pem.split(separator: "\n").dropFirst().dropLast().joined())!)
    }
    static let digestA = Array(repeating: UInt8(0xAA), count: 32)
    static let digestB = Array(repeating: UInt8(0xBB), count: 32)

    static func write(_ bytes: [UInt8]) throws -> String {
        let path = "/tmp/asikit-pins-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try Data(bytes).write(to: URL(filePath: path))
        return path
    }

    @Test func readsSeveralSHA256PinsSeparatedBySemicolons() throws {
        let a = Data(Self.digestA).base64EncodedString()
        let b = Data(Self.digestB).base64EncodedString()
        let pins = try PublicKeyPins(curlPinnedPublicKey: "sha256//\(a);sha256//\(b)")
        #expect(pins.sha256Digests == [Self.digestA, Self.digestB])
        #expect(pins.publicKeys.isEmpty)
        #expect(pins.matches(publicKey: [1, 2], sha256: Self.digestB))
        #expect(!pins.matches(publicKey: [1, 2], sha256: Array(repeating: 0, count: 32)))
        #expect(pins.description == "sha256//\(a);sha256//\(b)")
    }

    @Test(arguments: [
        "sha256//", "sha256//bm90IGJhc2U2NA", "sha256//AAAA", "sha256//\(String(repeating: "A", count: 44));md5//x",
        "sha256//!!!!",
    ])
    func refusesMalformedPins(_ argument: String) {
        let error = #expect(throws: ClientError.self) { try PublicKeyPins(curlPinnedPublicKey: argument) }
        #expect(error?.code == .invalidConfiguration)
    }

    @Test func refusesAnEmptyPinSet() {
        let error = #expect(throws: ClientError.self) { try PublicKeyPins(sha256Digests: []) }
        #expect(error?.code == .invalidConfiguration)
        #expect(throws: ClientError.self) { try PublicKeyPins(sha256Digests: [[1, 2, 3]]) }
    }

    @Test func readsAPEMKeyFile() throws {
        let path = try Self.write(Array(Self.pem.utf8))
        defer { unlink(path) }
        let pins = try PublicKeyPins(curlPinnedPublicKey: path)
        #expect(pins.publicKeys == [Self.der])
        #expect(pins.matches(publicKey: Self.der, sha256: Self.digestA))
        #expect(!pins.matches(publicKey: Self.der.dropLast() + [0], sha256: Self.digestA))
    }

    @Test func readsADERKeyFile() throws {
        let path = try Self.write(Self.der)
        defer { unlink(path) }
        #expect(try PublicKeyPins(contentsOfFile: path).publicKeys == [Self.der])
    }

    @Test func refusesMissingEmptyAndForeignFiles() throws {
        let text = try Self.write(Array("hello".utf8))
        let certificate = try Self.write(Array("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8))
        let truncated = try Self.write(Array(Self.pem.utf8.prefix(60)))
        let empty = try Self.write([])
        defer { for path in [text, certificate, truncated, empty] { unlink(path) } }
        for path in ["/nonexistent/key.pem", text, certificate, truncated, empty] {
            let error = #expect(throws: ClientError.self) { try PublicKeyPins(curlPinnedPublicKey: path) }
            #expect(error?.code == .invalidConfiguration, "\(path)")
        }
    }

    @Test func pinsAreHashedIntoTheTLSOptions() throws {
        var pinned = TLSOptions()
        pinned.pinnedPublicKeys = try PublicKeyPins(sha256Digests: [Self.digestA])
        #expect(pinned != TLSOptions())  // connections are pooled per TLSOptions: a pinned one is never shared
        #expect(ClientError.Code.publicKeyPinMismatch.description == "publicKeyPinMismatch")
        #expect(ClientError.Code.publicKeyPinMismatch.asiErrorType == 1)
    }
}
