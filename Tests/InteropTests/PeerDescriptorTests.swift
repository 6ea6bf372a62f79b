import FoundationEssentials
import Glibc
import HTTPCore
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// A peer the harness starts inherits only its standard descriptors, so the test process's sockets close when the
/// test closes them.
///
/// A peer that inherited an accepted socket of an in-process test server kept that connection open after the server
/// closed it: the client waited for a close that never came, until its 600 s timeout. Under the whole suite, where
/// peers start while other tests' servers hold connections, that hung the connection-loss and upload tests
/// (decision 0038).
@Suite struct PeerDescriptorTests {
    @Test func aPeerInheritsOnlyItsStandardDescriptors() throws {
        // A descriptor without close-on-exec, as `accept` returns them.
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { for fd in pair { close(fd) } }
        let directory = try makeTemporaryDirectory(prefix: "asikit-peer-fds")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let child = try ChildProcess(executable: "/bin/sleep", arguments: ["60"], logPath: directory + "/log")
        defer { child.terminate(grace: .seconds(1), signal: SIGKILL) }
        let inherited = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd")
        #expect(inherited.sorted() == ["0", "1", "2"])
    }

    @Test func aServerClosingWhileAPeerStartsClosesTheConnection() async throws {
        // The server starts a peer while it holds the accepted connection, then closes it without answering.
        let directory = try makeTemporaryDirectory(prefix: "asikit-peer-close")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let peers = StartedPeers()
        defer { peers.terminate() }
        let server = ScriptedTCPServer { connection in
            _ = connection.readSome()
            peers.start(logPath: directory + "/log")
        }
        defer { server.shutdown() }
        // A short timeout: a connection the peer keeps open fails the test in seconds instead of hanging it.
        let request = testRequest(URL(string: "http://127.0.0.1:\(server.port)/")!, timeout: .seconds(10))
        do {
            _ = try await fetch(POSIXTransport(), request)
            Issue.record("the server sent no answer, yet the request succeeded")
        } catch let error as ClientError {
            #expect(error.code == .emptyResponse, "\(error)")
        }
        #expect(peers.count == 1)
    }
}

/// The peers a test server's thread started, kept running until the test ends.
private final class StartedPeers: @unchecked Sendable {  // every access holds the lock
    private let lock = Mutex(())
    private var peers: [ChildProcess] = []

    /// Starts `sleep 60` and keeps it.
    func start(logPath: String) {
        let peer = try? ChildProcess(executable: "/bin/sleep", arguments: ["60"], logPath: logPath)
        lock.withLock { _ in if let peer { peers.append(peer) } }
    }

    var count: Int { lock.withLock { _ in peers.count } }

    func terminate() {
        lock.withLock { _ in for peer in peers { peer.terminate(grace: .seconds(1), signal: SIGKILL) } }
    }
}
