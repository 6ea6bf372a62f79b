import FoundationEssentials
import Glibc
import Synchronization

/// The TLS fixtures, made once per test process by `scripts/generate-test-certs.sh` into a temporary directory
/// that is removed when the process exits. No key or certificate is committed to the repository.
///
/// Every leaf is signed by ``caPath``: `server` is valid for `localhost`, `127.0.0.1` and `::1`; `wrongName`
/// only for `wrong.example`; `client` is a client certificate (subject `CN=asikit-test-client,O=ASIKit Tests`).
package struct TestCertificates: Sendable {
    /// The directory holding the files.
    package let directory: String

    /// The test CA's certificate (PEM).
    package var caPath: String { directory + "/ca.pem" }
    /// The server certificate for `localhost` (PEM).
    package var serverCertificatePath: String { directory + "/server.pem" }
    /// The server certificate's key (PEM, unencrypted).
    package var serverKeyPath: String { directory + "/server.key" }
    /// A server certificate for `wrong.example` only (PEM).
    package var wrongNameCertificatePath: String { directory + "/wrong.pem" }
    /// That certificate's key (PEM, unencrypted).
    package var wrongNameKeyPath: String { directory + "/wrong.key" }
    /// The client certificate (PEM).
    package var clientCertificatePath: String { directory + "/client.pem" }
    /// The client key (PEM, unencrypted).
    package var clientKeyPath: String { directory + "/client.key" }
    /// The client key encrypted with ``password`` (PKCS#8 PEM).
    package var clientEncryptedKeyPath: String { directory + "/client-encrypted.key" }
    /// The client certificate, key and CA as PKCS#12, encrypted with ``password``.
    package var clientPKCS12Path: String { directory + "/client.p12" }
    /// The password of ``clientPKCS12Path`` and ``clientEncryptedKeyPath``.
    package let password = "test"
    /// The client certificate's subject as nginx prints it (`$ssl_client_s_dn`, RFC 2253 order).
    package let clientSubject = "O=ASIKit Tests,CN=asikit-test-client"

    /// The fixtures, generated on first use.
    /// - Returns: The fixtures.
    /// - Throws: ``PeerError`` when `openssl` is missing or the script fails.
    package static func shared() throws -> TestCertificates {
        try generated.get()
    }

    /// Whether the fixtures can be made here (the `openssl` command is installed).
    package static var canGenerate: Bool { ChildProcess.find("openssl") != nil }

    /// The repository's root, found from this file's path.
    package static let repositoryRoot: String = {
        var url = URL(filePath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // file name, Certificates, TestSupport, Tests
        return url.path(percentEncoded: false)
    }()

    private static let generated: Result<TestCertificates, PeerError> = Result {
        let directory = try makeTemporaryDirectory(prefix: "asikit-certs")
        registerRemovalAtExit(directory)
        let script = repositoryRoot + "/scripts/generate-test-certs.sh"
        let log = directory + "/generate.log"
        let status = try ChildProcess.run("/bin/bash", [script, directory], logPath: log)
        guard status == 0 else {
            let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            throw PeerError.startFailed("\(script) (exit \(status))", log: output)
        }
        return TestCertificates(directory: directory)
    }.mapError { $0 as? PeerError ?? .startFailed("generate-test-certs.sh", log: "\($0)") }
}
