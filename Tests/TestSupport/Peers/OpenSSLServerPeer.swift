import FoundationEssentials
import Glibc

/// `openssl s_server -www` on a loopback address, port 0: a real TLS server for one certificate, chain and
/// protocol setting per test (the trust matrix). It answers `GET /` with its status page.
///
/// The server is told port 0 and prints the port it bound (`ACCEPT 127.0.0.1:PORT`), which ``start(certificate:
/// key:chain:arguments:address:)`` reads from its log, so no port is picked in advance.
package final class OpenSSLServerPeer {
    /// The bound port.
    package let port: Int
    private let process: ChildProcess
    private let scratch: String

    /// Whether the `openssl` command is installed.
    package static var isAvailable: Bool { ChildProcess.find("openssl") != nil }

    private init(port: Int, process: ChildProcess, scratch: String) {
        self.port = port
        self.process = process
        self.scratch = scratch
    }

    deinit {
        process.terminate(grace: .seconds(2))  // at once unless stop() was not called
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// Stops the server on a thread of its own (``offPool(_:)``), so waiting for it to exit holds no cooperative
    /// thread.
    package func stop() async {
        let process = Handoff(value: process)
        _ = try? await offPool { process.value.terminate(grace: .seconds(2)) }
    }

    /// Starts a server and waits until it listens.
    /// - Parameters:
    ///   - certificate: The certificate file; with `chain`, the certificates after the first are sent too.
    ///   - key: The private key file.
    ///   - chain: Whether to send the rest of `certificate`'s file as the chain (`-cert_chain`).
    ///   - arguments: More `s_server` arguments, such as `["-tls1"]`.
    ///   - address: `127.0.0.1` or `[::1]`.
    /// - Returns: The running server.
    /// - Throws: ``PeerError`` when it cannot start or does not listen within ``PeerEnvironment/startupTimeout``.
    package static func start(
        certificate: String, key: String, chain: Bool = true, arguments: [String] = [], address: String = "127.0.0.1"
    ) async throws -> OpenSSLServerPeer {
        let scratch = try makeTemporaryDirectory(prefix: "asikit-s_server")
        let log = scratch + "/s_server.log"
        // Security level 0 on the server: it must be able to offer the weak keys and old versions the clients
        // are expected to refuse.
        let process = try ChildProcess(
            executable: "openssl",
            arguments: ["s_server", "-www", "-accept", "\(address):0", "-cert", certificate, "-key", key,
                        "-cipher", "DEFAULT:@SECLEVEL=0"]
                + (chain ? ["-cert_chain", certificate] : []) + arguments,
            logPath: log)
        // The log is read once more after the deadline: in a busy parallel run this task may not be scheduled for
        // longer than the deadline, while the server has long been listening.
        let deadline = ContinuousClock.now + PeerEnvironment.startupTimeout
        while true {
            let expired = ContinuousClock.now >= deadline
            let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
                let colon = line.lastIndex(of: ":"), let port = Int(line[line.index(after: colon)...])
            {
                return OpenSSLServerPeer(port: port, process: process, scratch: scratch)
            }
            guard process.isRunning else {
                throw PeerError.startFailed("openssl s_server (\(process.exitDescription ?? ""))", log: process.logTail)
            }
            if expired { throw PeerError.notReady("openssl s_server", log: process.logTail) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
