import Glibc
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct BlockingSendTests {
    /// Runs `body` on a new POSIX thread (not in a task), as a script or CLI would.
    func onPlainThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let work = ThreadWork { continuation.resume(returning: body()) }
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { argument in
                Unmanaged<ThreadWork>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(work).toOpaque())
            precondition(result == 0, "pthread_create failed")
            pthread_detach(thread)
        }
    }

    @Test func returnsTheResponse() async throws {
        let client = Client(transport: ScriptedTransport { _, _ in .text("sync") })
        let text = await onPlainThread { try? client.sendSynchronously(Request("http://a.example/")).text() }
        #expect(text == "sync")
    }

    @Test func throwsClientErrors() async throws {
        let client = Client(transport: ScriptedTransport.failing(.timedOut))
        let code = await onPlainThread { () -> ClientError.Code? in
            do {
                _ = try client.sendSynchronously(Request("http://a.example/"))
                return nil
            } catch {
                return (error as? ClientError)?.code
            }
        }
        #expect(code == .timedOut)
    }

    @Test func manyThreadsAtOnce() async throws {
        let client = Client(transport: ScriptedTransport { request, _ in .text(request.url.path()) })
        let results = await withTaskGroup(of: String?.self) { group in
            for index in 0..<8 {
                group.addTask {
                    await onPlainThread { try? client.sendSynchronously(Request("http://a.example/\(index)")).text() }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.compactMap { $0 }) == Set((0..<8).map { "/\($0)" }))
    }
}

/// The closure a test thread runs.
final class ThreadWork: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
