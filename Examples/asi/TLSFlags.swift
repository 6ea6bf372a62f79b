import ArgumentParser

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
}
