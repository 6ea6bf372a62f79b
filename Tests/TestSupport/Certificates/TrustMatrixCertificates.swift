import FoundationEssentials

/// The trust matrix's certificates, made once per test process by `scripts/generate-trust-matrix-certs.sh` into
/// a temporary directory (no key is committed). Each case `NAME` is `NAME.pem` (the certificate, then the chain the
/// server sends) and `NAME.key`; ``rootPath`` is the root the clients trust. The script's header lists the cases.
package struct TrustMatrixCertificates: Sendable {
    /// The directory holding the files.
    package let directory: String

    /// The trusted root (PEM), given to the clients as `--cacert`.
    package var rootPath: String { directory + "/root.pem" }
    /// A case's certificate and chain (PEM).
    package func certificatePath(_ name: String) -> String { directory + "/\(name).pem" }
    /// A case's private key (PEM).
    package func keyPath(_ name: String) -> String { directory + "/\(name).key" }
    /// The public key of `good`, `self-signed` or `wrong-host` as PEM (`.pub.pem`) or DER (`.pub.der`).
    package func publicKeyPath(_ name: String, der: Bool = false) -> String {
        directory + "/\(name).pub." + (der ? "der" : "pem")
    }
    /// The `sha256//BASE64` pin of `good`, `self-signed` or `wrong-host`, computed by the openssl CLI.
    package func pin(_ name: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: directory + "/\(name).pin") else {
            throw PeerError.startFailed("the pin of \(name)", log: "no \(name).pin in \(directory)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The `sha256//BASE64` pin of any PEM private key's public key, computed by the openssl CLI (not by the code
    /// under test).
    /// - Parameter keyPath: The PEM private key.
    /// - Returns: The pin.
    /// - Throws: ``PeerError`` when openssl fails.
    package static func pin(ofKey keyPath: String) async throws -> String {
        try await offPool { try computePin(ofKey: keyPath) }
    }

    private static func computePin(ofKey keyPath: String) throws -> String {
        let scratch = try makeTemporaryDirectory(prefix: "asikit-pin")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let command = "openssl pkey -in \"$1\" -pubout -outform DER | openssl dgst -sha256 -binary | openssl base64 -A"
        let status = try ChildProcess.run("/bin/sh", ["-c", command, "sh", keyPath], logPath: scratch + "/pin")
        let output = String(decoding: FileManager.default.contents(atPath: scratch + "/pin") ?? Data(), as: UTF8.self)
        guard status == 0, output.count == 44 else {
            throw PeerError.startFailed("openssl pin of \(keyPath)", log: output)
        }
        return "sha256//" + output
    }

    /// The certificates, generated on first use, on a thread of their own (``offPool(_:)``): the script takes
    /// seconds, and every test that asks meanwhile waits for it without holding a cooperative thread.
    /// - Throws: ``PeerError`` when `openssl` is missing or the script fails.
    package static func shared() async throws -> TrustMatrixCertificates {
        try await offPool { try generated.get() }
    }

    private static let generated: Result<TrustMatrixCertificates, PeerError> = Result {
        let directory = try makeTemporaryDirectory(prefix: "asikit-trust-matrix")
        registerRemovalAtExit(directory)
        let script = TestCertificates.repositoryRoot + "/scripts/generate-trust-matrix-certs.sh"
        let log = directory + "/generate.log"
        let status = try ChildProcess.run("/bin/bash", [script, directory], logPath: log)
        guard status == 0 else {
            let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            throw PeerError.startFailed("\(script) (exit \(status))", log: output)
        }
        return TrustMatrixCertificates(directory: directory)
    }.mapError { $0 as? PeerError ?? .startFailed("generate-trust-matrix-certs.sh", log: "\($0)") }
}
