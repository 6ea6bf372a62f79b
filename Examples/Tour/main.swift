// The tour: ASIKit's request API, chapter by chapter as in ASIHTTPRequest's manual, against a server it starts
// itself on 127.0.0.1. No network needed:  swift run Tour
import Dispatch
import FoundationEssentials
import GzipCodec
import HTTPPipeline
import HTTPTesting
import SocketTransport

let server = try LoopbackServer(handler: TourServer.handle)
let client = Client(transport: .posix(), cache: MemoryCacheStore(), codecs: [.zlib()])
let scratch = "/tmp/asikit-tour-\(UInt32.random(in: 0...UInt32.max))"
try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: scratch) }
print("ASIKit tour — a test server is listening on \(server.baseURL)\n")

chapter("1. A synchronous request (startSynchronous)")
let hello = try client.sendSynchronously(Request(url: server.url("/hello")))
print("   \(hello.head.statusLine) — \"\(hello.text())\"")

chapter("2. An HTTP error status is a response, not an error")
let missing = try client.sendSynchronously(Request(url: server.url("/missing")))
print("   status \(missing.status.code), \(missing.body.count) bytes of body")

chapter("3. An asynchronous request with callbacks (startAsynchronous + delegate)")
let done = DispatchSemaphore(value: 0)
client.start(Request(url: server.url("/slow")), callbacks: RequestCallbacks(
    started: { _ in print("   started") },
    receivedResponseHead: { print("   headers: \($0.status.code), Content-Length \($0.headerFields[.contentLength] ?? "-")") },
    finished: { print("   finished: \"\($0.text())\""); done.signal() },
    failed: { print("   failed: \($0)"); done.signal() }))
done.wait()

chapter("4. Redirects: POST + 302 becomes GET; cookies set on the way are kept")
var login = Request(url: server.url("/login"), method: .post, body: .string("user=alice"))
login.headerFields[.contentType] = "application/x-www-form-urlencoded"
let home = try client.sendSynchronously(login)
print("   \(home.info.originalURL.path()) → \(home.url.path()) after \(home.info.redirectCount) redirect(s)")
print("   server saw: \(home.text())")

chapter("5. Authentication: a 401 challenge answered with the request's credentials")
var secret = Request(url: server.url("/secret"))
secret.options.credential = Credential(user: "alice", password: "wonderland")
print("   \(try client.sendSynchronously(secret).text()) (credential prints as \(secret.options.credential!))")
let again = try client.sendSynchronously(Request(url: server.url("/secret")))
print("   second request, credential from the session store: \(again.text())")

chapter("6. Timeouts and retries (timeOutSeconds, numberOfTimesToRetryOnTimeout)")
var flaky = Request(url: server.url("/flaky"))
flaky.options.timeout = .milliseconds(300)
flaky.options.retriesOnTimeout = 2
let survived = try client.sendSynchronously(flaky)
print("   \"\(survived.text())\" after \(survived.info.retryCount) retries")

chapter("7. The download cache: a fresh entry is served without the network")
let first = try client.sendSynchronously(Request(url: server.url("/cached")))
let second = try client.sendSynchronously(Request(url: server.url("/cached")))
print("   first from cache: \(first.info.isFromCache), second from cache: \(second.info.isFromCache)")

chapter("8. Errors carry a stable code (ASI's error types)")
var refused = Request(url: URL(string: "http://127.0.0.1:1/")!)
refused.options.timeout = .seconds(2)
do { _ = try client.sendSynchronously(refused) } catch let error as ClientError {
    print("   \(error.code) (ASI error type \(error.code.asiErrorType)): \(error.message)")
}

asyncChapter(client: client, server: server)
try DataChapters.run(client: client, server: server, scratch: scratch)

print("\nThe server accepted \(server.connectionCount) connections for \(server.requests.count) requests.")
server.shutdown()
