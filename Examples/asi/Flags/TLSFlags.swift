import ArgumentParser
import HTTPCore

/// The TLS flags: validation, trusted CAs and the client certificate.
struct TLSFlags: ParsableArguments {
    /// The formats `--cert-type` accepts.
    enum CertificateType: String, ExpressibleByArgument, CaseIterable {
        case pem = "PEM"
        case p12 = "P12"

        init?(argument: String) {
            self.init(rawValue: argument.uppercased())
        }
    }

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not check the server's certificate.")
    var insecure = false

    @Option(name: .customLong("cacert"), help: ArgumentHelp("Trust the CAs in this PEM file.", valueName: "file"))
    var caCertificate: String?

    @Option(
        name: .customLong("hsts"),
        help: ArgumentHelp(
            "Keep Strict-Transport-Security hosts in this file (curl's format) and send http:// to them as https://.",
            valueName: "file"))
    var hsts: String?

    @Option(
        name: [.customShort("E"), .customLong("cert")],
        help: ArgumentHelp("The client certificate (PEM, or a PKCS#12 bundle with --cert-type P12).", valueName: "file")
    )
    var certificate: String?

    @Option(
        name: .customLong("key"), help: ArgumentHelp("The client certificate's private key (PEM).", valueName: "file"))
    var key: String?

    @Option(name: .customLong("cert-type"), help: "PEM (default) or P12.")
    var certificateType: CertificateType = .pem

    @Option(name: .customLong("pass"), help: ArgumentHelp("The password of the key or bundle.", valueName: "phrase"))
    var password: String?

    @Option(
        name: .customLong("pinnedpubkey"),
        help: ArgumentHelp(
            "The server's public key must match: sha256//BASE64 pins separated by ';', or a PEM/DER key file.",
            valueName: "hashes|file"))
    var pinnedPublicKey: String?

    /// `--pinnedpubkey` as pins; `nil` without the flag.
    /// - Throws: ``TransferFailure`` with curl's exit code 90 for pins that cannot be read (curl fails the transfer
    ///   with 90 when no pin can match).
    func pins() throws -> PublicKeyPins? {
        try Self.pins(pinnedPublicKey)
    }

    /// Reads a `--pinnedpubkey` or `--proxy-pinnedpubkey` argument.
    /// - Throws: ``TransferFailure`` with exit code 90 for pins that cannot be read.
    static func pins(_ argument: String?) throws -> PublicKeyPins? {
        guard let argument else { return nil }
        do {
            return try PublicKeyPins(curlPinnedPublicKey: argument)
        } catch let error as ClientError {
            throw TransferFailure(90, "SSL: public key does not match pinned public key: \(error.message)")
        }
    }
}
