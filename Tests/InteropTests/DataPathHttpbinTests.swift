import CodecTestSupport
import Dispatch
import FoundationEssentials
import GzipCodec
import HTTPCore
import HTTPPipeline
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// Forms, bodies, compressed responses, downloads and resume against a real httpbin under gunicorn.
@Suite("data path: httpbin", .enabled(if: HttpbinPeer.shouldRun), .serialized)
struct DataPathHttpbinTests {
    /// httpbin's echo of a request.
    struct Echo: Decodable {
        /// A form field: one value, or a list for repeated keys.
        enum Value: Decodable, Equatable {
            case one(String)
            case many([String])

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let one = try? container.decode(String.self) {
                    self = .one(one)
                } else {
                    self = .many(try container.decode([String].self))
                }
            }
        }

        var method: String?
        var data: String
        var form: [String: Value]
        var files: [String: Value]
        var headers: [String: String]
    }

    static func echo(_ response: ClientResponse) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: Data(response.body))
    }

    @Test func aUrlEncodedFormArrivesAsFields() async throws {
        try await withHttpbin { httpbin in
            var form = FormData()
            form.add("Ben Copsey", forKey: "name")
            form.add("red", forKey: "colour")
            form.add("blue & green", forKey: "colour")
            form.add("ünïcødé :/?#[]@!$&'()*+,;=%", forKey: "odd")
            let response = try await DataPath.client().send(Request(url: httpbin.url("/post"), form: form))
            #expect(response.status == .ok)
            let echo = try Self.echo(response)
            #expect(echo.form["name"] == .one("Ben Copsey"))
            #expect(echo.form["colour"] == .many(["red", "blue & green"]))
            #expect(echo.form["odd"] == .one("ünïcødé :/?#[]@!$&'()*+,;=%"))
            #expect(echo.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    @Test func aMultipartFormWithAFileArrivesIntact() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let notes = DataPath.text(300_000)
            try DataPath.write(notes, to: directory + "/notes.txt")
            var form = FormData()
            form.add("1", forKey: "id")
            try form.addFile(atPath: directory + "/notes.txt", forKey: "notes")
            form.addData(Array("{\"a\":1}".utf8), fileName: "a.json", contentType: "application/json", forKey: "meta")
            let response = try await DataPath.client().send(Request(url: httpbin.url("/post"), form: form))
            let echo = try Self.echo(response)
            #expect(echo.form["id"] == .one("1"))
            #expect(echo.files["notes"] == .one(String(decoding: notes, as: UTF8.self)))
            #expect(echo.files["meta"] == .one("{\"a\":1}"))
            #expect(echo.headers["Content-Length"] == response.info.finalRequest.body?.length.map(String.init))
        }
    }

    @Test func aPutBodyFromAFileIsEchoed() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let text = DataPath.text(50_000)
            try DataPath.write(text, to: directory + "/body.txt")
            let request = Request(
                url: httpbin.url("/put"), method: .put, body: try .file(atPath: directory + "/body.txt"))
            let echo = try Self.echo(try await DataPath.client().send(request))
            #expect(echo.data == String(decoding: text, as: UTF8.self))
        }
    }

    @Test func methodsWithABody() async throws {
        try await withHttpbin { httpbin in
            for (method, sent) in [("GET", "POST"), ("DELETE", "DELETE"), ("PATCH", "PATCH")] {
                let request = Request(
                    url: httpbin.url("/anything"), method: HTTPRequest.Method(method)!, body: .string("x=1"))
                let echo = try Self.echo(try await DataPath.client().send(request))
                #expect(echo.method == sent)
                #expect(echo.data == "x=1")
            }
        }
    }

    @Test func aCompressedBodyIsSentGzipped() async throws {
        try await withHttpbin { httpbin in
            let text = DataPath.text(20_000)
            var request = Request(url: httpbin.url("/anything"), method: .post, body: .bytes(text))
            request.options.compressesRequestBody = true
            let echo = try Self.echo(try await DataPath.client().send(request))
            #expect(echo.headers["Content-Encoding"] == "gzip")
            let prefix = "data:application/octet-stream;base64,"
            #expect(echo.data.hasPrefix(prefix))
            let sent = try #require(Data(base64Encoded: String(echo.data.dropFirst(prefix.count))))
            #expect(try DataPath.gunzip(Array(sent)) == text)
        }
    }

    @Test func compressedResponsesAreInflated() async throws {
        try await withHttpbin { httpbin in
            for path in ["/gzip", "/deflate"] {
                for atEnd in [true, false] {
                    var request = Request(url: httpbin.url(path))
                    request.options.inflatesWhenComplete = atEnd
                    let response = try await DataPath.client().send(request)
                    #expect(response.isResponseCompressed)
                    let key = path == "/gzip" ? "\"gzipped\": true" : "\"deflated\": true"
                    #expect(response.text().contains(key))
                    #expect(response.text().contains("\"Accept-Encoding\": \"deflate, gzip\""))
                    #expect((response.rawBody != response.body) == atEnd)
                }
            }
        }
    }

    @Test func aResumedRangeDownloadIsByteIdentical() async throws {
        try await withHttpbin { httpbin in
            for partial in [1, 40_000, 99_999] {
                let directory = try DataPath.directory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let full = (0..<100_000).map { UInt8(97 + $0 % 26) }
                try DataPath.write(Array(full.prefix(partial)), to: directory + "/part")
                let response = try await DataPath.client()
                    .send(DataPath.download(httpbin.url("/range/100000"), into: directory, resume: true))
                #expect(response.status == .partialContent)
                #expect(LargeBytes.equal(DataPath.read(directory + "/out"), full))
            }
        }
    }

    @Test func downloadsMatchTheBodyInMemory() async throws {
        try await withHttpbin { httpbin in
            for path in ["/bytes/60000?seed=7", "/stream-bytes/200000?seed=7&chunk_size=3000"] {
                let directory = try DataPath.directory()
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let inMemory = try await DataPath.client().send(Request(url: httpbin.url(path)))
                _ = try await DataPath.client().send(DataPath.download(httpbin.url(path), into: directory))
                #expect(!inMemory.body.isEmpty)
                #expect(LargeBytes.equal(DataPath.read(directory + "/out"), inMemory.body))
            }
        }
    }

    @Test func dripStreamsInPieces() async throws {
        try await withHttpbin { httpbin in
            let url = httpbin.url("/drip?numbytes=20&duration=0.5&delay=0&code=200")
            let response = try await DataPath.client().stream(Request(url: url))
            var received: [UInt8] = []
            var chunks = 0
            for try await chunk in response.body {
                received += chunk
                chunks += 1
            }
            #expect(received == Array(repeating: UInt8(ascii: "*"), count: 20))
            #expect(chunks > 1)
            let pieces = Mutex<Int>(0)
            let handle = DataPath.client().start(
                Request(url: url), callbacks: RequestCallbacks(receivedData: { _ in pieces.withLock { $0 += 1 } }))
            await handle.wait()
            await withCheckedContinuation { continuation in Client.callbackQueue.async { continuation.resume() } }
            #expect(pieces.withLock { $0 } > 1)
        }
    }
}
