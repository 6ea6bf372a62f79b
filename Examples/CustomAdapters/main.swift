// How an app writes its own stores and plugs them into the composition root:  swift run CustomAdapters
// A cache kept in an actor and a cookie store that only accepts first-party cookies, both checked with the
// conformance suites from HTTPTesting, then used by a client against a loopback server.
import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport

let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        // 1. Prove the adapters keep the contracts the pipeline relies on.
        try await CacheStoreConformance.run(declinesEntriesOver: 4096) { DictionaryCache(maxEntrySize: 4096) }
        try await CookieStoreConformance.run { FirstPartyCookieStore(site: "example.com") }
        print("Both adapters pass the HTTPTesting conformance suites.")

        // 2. Plug them in.
        let server = try LoopbackServer { request in
            request.path == "/login"
                ? .status(200, headers: [("Set-Cookie", "id=1"), ("Cache-Control", "max-age=60")])
                : .ok("cookie: \(request.header("Cookie") ?? "none")")
        }
        let cache = DictionaryCache()
        let cookies = FirstPartyCookieStore(site: "127.0.0.1")
        let client = Client(transport: .posix(), cache: cache, cookies: cookies)

        _ = try await client.send(Request(url: server.url("/login")))
        let page = try await client.send(Request(url: server.url("/page")))
        let again = try await client.send(Request(url: server.url("/login")))
        print("The server saw \(page.text()); the second /login came from the cache: \(again.info.isFromCache)")
        print("Cache keys: \(await cache.keys)")
        try await client.shutdown()
        server.shutdown()
    } catch {
        print("failed: \(error)")
    }
    done.signal()
}
done.wait()
