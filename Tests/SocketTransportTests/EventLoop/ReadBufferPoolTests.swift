import FoundationEssentials
import Glibc
import HTTPCore
import HTTPTesting
@testable import SocketTransport
import TestSupport
import Testing

/// Connections borrow their read buffer from the event loop's pool for one read at a time (decision 0038): none is
/// held while a connection waits for its answer or idles in the pool, so many connections share a few buffers.
@Suite struct ReadBufferPoolTests {
    @Test func givenBackBuffersAreReusedAndOnlyAFewAreKept() {
        let pool = ReadBufferPool()
        let taken = (0..<ReadBufferPool.keptBuffers + 2).map { _ in pool.take() }
        #expect(Set(taken).count == taken.count)
        #expect(pool.counts.existing == taken.count)
        for buffer in taken { pool.giveBack(buffer) }
        #expect(pool.counts.existing == ReadBufferPool.keptBuffers)
        #expect(pool.counts.free == ReadBufferPool.keptBuffers)
        #expect(pool.counts.mostExisting == taken.count)
        // The last one given back (and kept) is lent first; taking allocates nothing new.
        let again = pool.take()
        #expect(again == taken[ReadBufferPool.keptBuffers - 1])
        #expect(pool.counts.existing == ReadBufferPool.keptBuffers)
        pool.giveBack(again)
    }

    @Test func aBufferHoldsAWholeRead() {
        let pool = ReadBufferPool()
        let buffer = pool.take()
        // Every byte of the largest read can be written (a sanitizer run would catch an overflow).
        memset(buffer, 0xA5, ReadBufferPool.bufferSize)
        #expect(buffer.load(fromByteOffset: ReadBufferPool.bufferSize - 1, as: UInt8.self) == 0xA5)
        pool.giveBack(buffer)
    }

    /// Every connection waits for its answer at the same time (the server holds each request until all have
    /// arrived): none holds a read buffer then, and the answers still arrive whole.
    @Test func connectionsWaitingForTheirAnswersHoldNoReadBuffer() async throws {
        let connections = 24
        let arrived = Locked(0)
        let release = Locked(false)
        let server = try LoopbackServer { request in
            arrived.withLock { $0 += 1 }
            while !release.withLock({ $0 }) { usleep(1_000) }
            return .ok("answer to \(request.path)")
        }
        defer { server.shutdown() }
        let transport = POSIXTransport(configuration: .init(maxConnectionsPerHost: connections))
        try await withThrowingTaskGroup(of: (String, [UInt8]).self) { group in
            for index in 0..<connections {
                group.addTask {
                    let (_, body) = try await fetch(transport, testRequest(server.url("/\(index)")))
                    return ("/\(index)", body)
                }
            }
            #expect(await eventually { arrived.withLock { $0 } == connections })
            let loop = try #require(transport.core.loops.executorLoop())
            // A read that found nothing gives its buffer back before it waits; a buffer still lent out now would be
            // held across the wait.
            #expect(await eventually(within: 60) {
                let counts = loop.readBuffers.counts
                return counts.existing == counts.free
            }, "\(loop.readBuffers.counts)")
            release.withLock { $0 = true }
            for try await (path, body) in group {
                #expect(body == Array("answer to \(path)".utf8))
            }
        }
        #expect(transport.core.pool.openCount(PoolKey(scheme: "http", host: "127.0.0.1", port: server.port))
                == connections)
        try await transport.shutdown()
    }
}

/// The same against nginx: many keep-alive connections in use at once share a few read buffers, and none is held
/// once they idle in the pool.
@Suite(.enabled(if: NginxPeer.shouldRun))
struct ReadBufferPoolNginxTests {
    @Test func manyConnectionsToNginxShareAFewReadBuffers() async throws {
        try await withNginx { nginx in
            let connections = 64
            let transport = POSIXTransport(configuration: .init(maxConnectionsPerHost: connections))
            let url = nginx.url("/1k.bin")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<connections {
                    group.addTask {
                        for _ in 0..<4 {
                            let (response, body) = try await fetch(transport, testRequest(url))
                            #expect(response.status == .ok)
                            #expect(body == NginxPeer.oneKiB)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let loop = try #require(transport.core.loops.executorLoop())
            let counts = loop.readBuffers.counts
            #expect(counts.existing == counts.free, "a connection idle in the pool holds a read buffer: \(counts)")
            // A buffer per connection would be 64: only reads running at the same moment need one each.
            #expect(counts.mostExisting <= connections / 4, "\(counts)")
            #expect(transport.core.pool.openCount(PoolKey(scheme: "http", host: "127.0.0.1", port: url.port!)) > 1)
            try await transport.shutdown()
        }
    }
}
