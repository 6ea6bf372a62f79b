import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// Checks the interop harnesses themselves: the real servers start on the ports they report, answer, and are
/// gone (process and directory) after `stop()`.
@Suite("Interop peer harness")
struct PeerHarnessTests {
    @Test(.enabled(if: NginxPeer.shouldRun))
    func nginxStartsServesAndStops() throws {
        let peer = try NginxPeer.start()
        let directory = peer.directory
        #expect(LoopbackPorts.statusCode(port: peer.port(.plain), path: "/hello.txt") == 200)
        #expect(LoopbackPorts.statusCode(port: peer.port(.plain), path: "/missing") == 404)
        for server in NginxPeer.Server.allCases {
            #expect(LoopbackPorts.accepts(peer.port(server)), "\(server) is not listening")
        }
        #expect(Set(NginxPeer.Server.allCases.map(peer.port)).count == NginxPeer.Server.allCases.count)
        let pid = try #require(pidFromFile(directory + "/nginx.pid"))
        #expect(kill(pid, 0) == 0)

        peer.stop()
        #expect(!LoopbackPorts.accepts(peer.port(.plain)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        #expect(access(directory, F_OK) == -1)
    }

    @Test(.enabled(if: NginxPeer.shouldRun))
    func twoNginxPeersRunSideBySide() throws {
        let first = try NginxPeer.start()
        let second = try NginxPeer.start()
        #expect(first.port(.plain) != second.port(.plain))
        #expect(LoopbackPorts.statusCode(port: first.port(.plain), path: "/hello.txt") == 200)
        #expect(LoopbackPorts.statusCode(port: second.port(.plain), path: "/hello.txt") == 200)
    }

    @Test(.enabled(if: NginxPeer.shouldRun))
    func testCertificatesExist() throws {
        let certificates = try TestCertificates.shared()
        let paths = [
            certificates.caPath, certificates.serverCertificatePath, certificates.serverKeyPath,
            certificates.wrongNameCertificatePath, certificates.wrongNameKeyPath, certificates.clientCertificatePath,
            certificates.clientKeyPath, certificates.clientEncryptedKeyPath, certificates.clientPKCS12Path,
        ]
        for path in paths {
            #expect(access(path, R_OK) == 0, "\(path) is missing")
        }
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun))
    func httpbinStartsServesAndStops() throws {
        let peer = try HttpbinPeer.start()
        #expect(LoopbackPorts.statusCode(port: peer.port, path: "/status/418") == 418)
        peer.stop()
        #expect(!LoopbackPorts.accepts(peer.port))
    }

    private func pidFromFile(_ path: String) -> pid_t? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return pid_t(String(decoding: data.filter { (0x30...0x39).contains($0) }, as: UTF8.self))
    }
}
