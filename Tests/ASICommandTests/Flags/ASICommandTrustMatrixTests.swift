import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// The TLS trust matrix (Docs/Guide/09-TLS.md, decision 0027), in the style of badssl.com: each row is a real TLS
/// server on 127.0.0.1 port 0 (`openssl s_server` with a certificate made by
/// `scripts/generate-trust-matrix-certs.sh`, or a TCP server that stalls or sends garbage), fetched by `asi` and
/// by curl with the same arguments; both must accept or refuse, with the same exit code. The two rows where `asi`
/// is stricter than curl on purpose (RFC 9525: no CN fallback) say so with ``Row/curlExit``.
@Suite("asi: TLS trust matrix, side by side with curl", .enabled(if: TrustMatrixTools.canRun))
struct ASICommandTrustMatrixTests {
    static var curl: String? { TrustMatrixTools.curl }

    /// A server that is not `s_server`.
    enum Fault: Sendable {
        /// Accepts, reads the ClientHello and never answers.
        case stall
        /// Answers the ClientHello with plain HTTP.
        case garbage
        /// Closes the connection after reading the ClientHello.
        case closeAfterHello
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        /// The certificate case (`scripts/generate-trust-matrix-certs.sh`); unused with a ``fault``.
        var certificate = "good"
        /// The URL's host; names other than IP literals are sent to 127.0.0.1 with `--resolve`.
        var host = "localhost"
        /// More `s_server` arguments; `{dir}` is replaced by the certificates' directory.
        var server: [String] = []
        var fault: Fault? = nil
        /// More client arguments, for both clients; `{pin:NAME}`, `{pem:NAME}` and `{der:NAME}` are replaced by
        /// the case's pin and public-key files.
        var arguments: [String] = []
        /// `asi`'s exit code, and curl's unless ``curlExit`` is set.
        let exit: Int32
        /// curl's exit code where `asi` differs on purpose.
        var curlExit: Int32? = nil

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        // Chains and validity.
        Row(name: "valid certificate", exit: 0),
        Row(name: "valid certificate, RSA 2048", certificate: "rsa2048", exit: 0),
        Row(name: "expired", certificate: "expired", exit: 60),
        Row(name: "not yet valid", certificate: "not-yet-valid", exit: 60),
        Row(name: "self-signed", certificate: "self-signed", exit: 60),
        Row(name: "untrusted root", certificate: "untrusted-root", exit: 60),
        Row(name: "intermediate sent", certificate: "chained", exit: 0),
        Row(name: "missing intermediate", certificate: "missing-intermediate", exit: 60),
        Row(name: "expired, with -k", certificate: "expired", arguments: ["-k"], exit: 0),
        Row(name: "intermediate that is not a CA", certificate: "not-a-ca-chain", exit: 60),
        Row(name: "expired intermediate", certificate: "expired-intermediate", exit: 60),
        Row(name: "extendedKeyUsage clientAuth only", certificate: "client-eku", exit: 60),
        Row(name: "no keyUsage, no extendedKeyUsage", certificate: "no-eku-no-ku", exit: 0),
        // Host names (RFC 9525).
        Row(name: "wrong host", certificate: "wrong-host", exit: 60),
        Row(name: "wrong host, with -k", certificate: "wrong-host", arguments: ["-k"], exit: 0),
        Row(name: "the second SAN matches", certificate: "second-san", exit: 0),
        Row(name: "SAN in capitals", certificate: "upper-san", exit: 0),
        Row(name: "wildcard *.a.test for x.a.test", certificate: "wildcard", host: "x.a.test", exit: 0),
        Row(name: "wildcard *.a.test for X.A.TEST", certificate: "wildcard", host: "X.A.TEST", exit: 0),
        Row(name: "wildcard *.a.test for a.test", certificate: "wildcard", host: "a.test", exit: 60),
        Row(name: "wildcard *.a.test for x.y.a.test", certificate: "wildcard", host: "x.y.a.test", exit: 60),
        Row(name: "partial wildcard f*.a.test for foo.a.test", certificate: "partial-wildcard", host: "foo.a.test",
            exit: 60),
        Row(name: "inner wildcard x.*.test for x.a.test", certificate: "inner-wildcard", host: "x.a.test", exit: 60),
        Row(name: "wildcard *.test for a.test", certificate: "tld-wildcard", host: "a.test", exit: 60),
        Row(name: "trailing dot: localhost.", host: "localhost.", exit: 0),
        Row(name: "trailing dot: x.a.test. against *.a.test", certificate: "wildcard", host: "x.a.test.", exit: 0),
        Row(name: "trailing dot: wrong host", certificate: "wrong-host", host: "localhost.", exit: 60),
        Row(name: "CN matches, SAN does not", certificate: "cn-ok-san-wrong", exit: 60),
        Row(name: "CN only, no SAN (RFC 9525: no CN-ID)", certificate: "cn-only", exit: 60, curlExit: 0),
        // IP addresses: only against IP SANs.
        Row(name: "IP SAN", certificate: "ip-san", host: "127.0.0.1", exit: 0),
        Row(name: "IP literal against the valid certificate", host: "127.0.0.1", exit: 0),
        Row(name: "IP in a DNS SAN", certificate: "ip-as-dns-san", host: "127.0.0.1", exit: 60),
        Row(name: "wildcard *.0.0.1 for 127.0.0.1", certificate: "ip-wildcard", host: "127.0.0.1", exit: 60),
        Row(name: "IP in CN, a DNS SAN present", certificate: "ip-in-cn", host: "127.0.0.1", exit: 60),
        Row(name: "IP in CN only, no SAN (RFC 9525: no CN-ID)", certificate: "ip-in-cn-only", host: "127.0.0.1",
            exit: 60, curlExit: 0),
        // Keys, signatures and versions (security level 2, TLS 1.2 or later).
        Row(name: "RSA 1024 key", certificate: "rsa1024", exit: 60),
        Row(name: "SHA-1 signature", certificate: "sha1", exit: 60),
        Row(name: "EC P-384 key", certificate: "p384", exit: 0),
        Row(name: "EC P-192 key (not offered in TLS 1.2/1.3)", certificate: "p192", exit: 35),
        Row(name: "TLS 1.0 only", server: ["-tls1"], exit: 35),
        Row(name: "TLS 1.1 only", server: ["-tls1_1"], exit: 35),
        Row(name: "TLS 1.2 only", server: ["-tls1_2"], exit: 0),
        Row(name: "TLS 1.3 only", server: ["-tls1_3"], exit: 0),
        Row(name: "TLS 1.2 DHE with a 1024-bit group", certificate: "rsa2048",
            server: ["-tls1_2", "-dhparam", "{dir}/dh1024.pem", "-cipher", "DHE-RSA-AES128-GCM-SHA256:@SECLEVEL=0"],
            exit: 35),
        Row(name: "TLS 1.2, AES-CBC with SHA-1 MACs only", server: ["-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA"],
            exit: 0),
        Row(name: "client certificate required, none sent, TLS 1.3", server: ["-Verify", "1"], exit: 56),
        Row(name: "client certificate required, none sent, TLS 1.2", server: ["-Verify", "1", "-tls1_2"], exit: 35),
        // Broken servers.
        Row(name: "never completes the handshake", fault: .stall, arguments: ["--connect-timeout", "2"], exit: 28),
        Row(name: "answers with garbage", fault: .garbage, exit: 35),
        Row(name: "closes after the ClientHello", fault: .closeAfterHello, exit: 35),
        // Public-key pinning (--pinnedpubkey), checked after validation.
        Row(name: "pinned key matches", arguments: ["--pinnedpubkey", "{pin:good}"], exit: 0),
        Row(name: "pinned key, one of two matches", arguments: ["--pinnedpubkey", "{pin:wrong-host};{pin:good}"],
            exit: 0),
        Row(name: "pinned key mismatch", arguments: ["--pinnedpubkey", "{pin:wrong-host}"], exit: 90),
        Row(name: "pinned PEM key file", arguments: ["--pinnedpubkey", "{pem:good}"], exit: 0),
        Row(name: "pinned DER key file", arguments: ["--pinnedpubkey", "{der:good}"], exit: 0),
        Row(name: "pinned DER key file mismatch", arguments: ["--pinnedpubkey", "{der:wrong-host}"], exit: 90),
        Row(name: "pinned key file missing", arguments: ["--pinnedpubkey", "/nonexistent/key.pem"], exit: 90),
        Row(name: "pinned key, untrusted chain: validation first", certificate: "self-signed",
            arguments: ["--pinnedpubkey", "{pin:self-signed}"], exit: 60),
        Row(name: "pinned key with -k", certificate: "self-signed",
            arguments: ["-k", "--pinnedpubkey", "{pin:self-signed}"], exit: 0),
        Row(name: "pinned key mismatch with -k", certificate: "self-signed",
            arguments: ["-k", "--pinnedpubkey", "{pin:good}"], exit: 90),
    ]

    @Test(arguments: rows)
    func asiAndCurlAgree(_ row: Row) async throws {
        let curl = try #require(Self.curl, "curl is needed")
        let certificates = try await TrustMatrixCertificates.shared()
        var server: OpenSSLServerPeer?
        var faultServer: ScriptedTCPServer?
        defer { faultServer?.shutdown() }
        let port: Int
        if let fault = row.fault {
            let script = Self.script(fault)
            faultServer = ScriptedTCPServer(script)
            port = faultServer!.port
        } else {
            server = try await OpenSSLServerPeer.start(
                certificate: certificates.certificatePath(row.certificate),
                key: certificates.keyPath(row.certificate),
                arguments: row.server.map { $0.replacing("{dir}", with: certificates.directory) })
            port = server!.port
        }
        let isIP = row.host.first?.isNumber ?? false
        // -y 60: asi's default inactivity limit (10 s) could end a transfer on a machine so busy that the server's
        // thread is not scheduled in time; only the stall row is meant to time out, and it says so.
        var arguments = ["-s", "-S", "-o", "/dev/null", "-m", "90", "-y", "60", "--cacert", certificates.rootPath]
        if !isIP { arguments += ["--resolve", "\(row.host):\(port):127.0.0.1"] }
        arguments += try row.arguments.map { try Self.expand($0, certificates) }
        arguments.append("https://\(row.host):\(port)/")

        let asi = try await ASICommandRun.run(arguments, limit: .seconds(120),
                                                 environment: ASICommandSquidProxyTests.cleared)
        let curlRun = try await Self.runCurl(curl, arguments)
        #expect(asi.status == row.exit, "asi: \(asi.stderr)")
        #expect(curlRun.status == (row.curlExit ?? row.exit), "curl: \(curlRun.stderr)")
        if row.exit == 90 { #expect(asi.stderr.contains("pinned"), "\(asi.stderr)") }
        await server?.stop()
    }

    @Test(.enabled(if: LoopbackPorts.hasIPv6Loopback))
    func anIPv6LiteralMatchesOnlyItsIPSAN() async throws {
        let curl = try #require(Self.curl, "curl is needed")
        let certificates = try await TrustMatrixCertificates.shared()
        for (name, exit) in [("good", Int32(0)), ("ip-san", 60)] {
            let server = try await OpenSSLServerPeer.start(
                certificate: certificates.certificatePath(name), key: certificates.keyPath(name), address: "[::1]")
            let arguments = ["-s", "-S", "-o", "/dev/null", "-m", "90", "-y", "60", "--cacert", certificates.rootPath,
                             "https://[::1]:\(server.port)/"]
            let asi = try await ASICommandRun.run(arguments, limit: .seconds(120),
                                                 environment: ASICommandSquidProxyTests.cleared)
            let curlRun = try await Self.runCurl(curl, arguments)
            #expect(asi.status == exit, "asi, \(name): \(asi.stderr)")
            #expect(curlRun.status == exit, "curl, \(name): \(curlRun.stderr)")
            await server.stop()
        }
    }

    static func script(_ fault: Fault) -> @Sendable (ScriptedTCPConnection) -> Void {
        switch fault {
        case .stall:
            return { connection in while !connection.readSome().isEmpty {} }
        case .garbage:
            return { connection in
                _ = connection.readSome()
                connection.write(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
                while !connection.readSome().isEmpty {}
            }
        case .closeAfterHello:
            return { connection in _ = connection.readSome() }
        }
    }

    static func expand(_ argument: String, _ certificates: TrustMatrixCertificates) throws -> String {
        var result = argument
        for name in ["good", "self-signed", "wrong-host"] {
            result = result.replacing("{pin:\(name)}", with: try certificates.pin(name))
            result = result.replacing("{pem:\(name)}", with: certificates.publicKeyPath(name))
            result = result.replacing("{der:\(name)}", with: certificates.publicKeyPath(name, der: true))
        }
        return result
    }

    static func runCurl(_ curl: String, _ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let scratch = try makeTemporaryDirectory(prefix: "asikit-curl-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // -q first: no ~/.curlrc changes what curl checks; no proxy variable sends it elsewhere.
        let process = try ChildProcess(executable: curl, arguments: ["-q"] + arguments, logPath: scratch + "/log",
                                       environment: ASICommandSquidProxyTests.cleared)
        let status = await process.exited()
        return (status, process.logTail)
    }
}

/// The programs the trust matrix needs: curl and openssl. Without `ASI_REQUIRE_PEERS=1`, the suite is skipped when
/// one is missing; with it, the suite runs and fails.
enum TrustMatrixTools {
    static let curl = ChildProcess.find("curl")
    static var canRun: Bool { (curl != nil && OpenSSLServerPeer.isAvailable) || PeerEnvironment.peersRequired }
}
