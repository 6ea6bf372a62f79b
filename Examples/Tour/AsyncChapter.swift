import Dispatch
import HTTPPipeline
import HTTPTesting

/// Chapter 9: the same client from async code.
func asyncChapter(client: Client, server: LoopbackServer) {
    chapter("9. async/await")
    let asyncDone = DispatchSemaphore(value: 0)
    Task.detached {  // detached: top-level code runs on the main actor, which this thread blocks below
        do {
            let response = try await client.send(Request(url: server.url("/hello")))
            print("   await client.send(...) → \(response.status.code) on connection #\(response.info.connectionID ?? 0)")
        } catch {
            print("   failed: \(error)")
        }
        asyncDone.signal()
    }
    asyncDone.wait()
}
