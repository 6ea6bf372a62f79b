import CodecTestSupport
import FoundationEssentials
import GzipCodec
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing

/// Downloads, resume, compressed responses and uploads against a real nginx.
@Suite("data path: nginx", .enabled(if: NginxPeer.shouldRun))
struct DataPathNginxTests {
    static let binary = DataPath.bytes(3 << 20)
    static let text = DataPath.text(2 << 20)

    static func withPeer(_ body: (DataPathNginxPeer) async throws -> Void) async throws {
        try await withDataNginx(
            files: ["data.bin": binary, "text.txt": text],
            precompressed: ["text.txt": try DataPath.gzip(text)], body)
    }

    @Test func aStaticFileDownloadsToTheDestination() async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let response = try await DataPath.client().send(
                DataPath.download(nginx.url("/files/data.bin"), into: directory))
            #expect(response.status == .ok)
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.binary))
            #expect(DataPath.listing(directory) == ["out"])
        }
    }

    @Test(arguments: [1, 1 << 20, 3 << 20 - 1])
    func aResumedDownloadIsByteIdentical(partial: Int) async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Array(Self.binary.prefix(partial)), to: directory + "/part")
            let response = try await DataPath.client()
                .send(DataPath.download(nginx.url("/files/data.bin"), into: directory, resume: true))
            #expect(response.status == .partialContent)
            #expect(
                response.headerFields[.contentRange] == "bytes \(partial)-\(Self.binary.count - 1)/\(Self.binary.count)"
            )
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.binary))
            #expect(DataPath.listing(directory) == ["out"])
        }
    }

    @Test func aServerThatIgnoresRangeRestartsFromZero() async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Array(repeating: 0xAB, count: 500_000), to: directory + "/part")
            let response = try await DataPath.client()
                .send(DataPath.download(nginx.url("/norange/data.bin"), into: directory, resume: true))
            #expect(response.status == .ok)
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.binary))
        }
    }

    @Test func a416ForACompleteFileFinishesIt() async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Self.binary, to: directory + "/part")
            let response = try await DataPath.client()
                .send(DataPath.download(nginx.url("/files/data.bin"), into: directory, resume: true))
            #expect(response.status.code == 416)
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.binary))
            #expect(DataPath.listing(directory) == ["out"])
        }
    }

    @Test(arguments: [true, false])
    func gzipStaticIsInflated(atEnd: Bool) async throws {
        try await Self.withPeer { nginx in
            var request = Request(url: nginx.url("/gz/text.txt"))
            request.options.inflatesWhenComplete = atEnd
            let response = try await DataPath.client().send(request)
            #expect(response.headerFields[.contentEncoding] == "gzip")
            #expect(response.isResponseCompressed)
            #expect(LargeBytes.equal(response.body, Self.text))
            #expect(response.rawBody == (atEnd ? try DataPath.gzip(Self.text) : Self.text))
        }
    }

    @Test func withoutACodecTheCompressedFileIsNotOffered() async throws {
        try await Self.withPeer { nginx in
            let response = try await Client(transport: .posix()).send(Request(url: nginx.url("/gz/text.txt")))
            #expect(response.headerFields[.contentEncoding] == nil)
            #expect(LargeBytes.equal(response.body, Self.text))
        }
    }

    @Test(arguments: [true, false])
    func gzipStaticDownloadsAreInflatedIntoTheDestination(atEnd: Bool) async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            var request = DataPath.download(nginx.url("/gz/text.txt"), into: directory)
            request.options.inflatesWhenComplete = atEnd
            _ = try await DataPath.client().send(request)
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.text))
            #expect(DataPath.listing(directory) == ["out"])
        }
    }

    /// nginx answers a Range on a `gzip_static` file with the whole file (200), so the partial compressed file is
    /// started again; the loopback tests cover a 206 of compressed bytes.
    @Test func aResumedGzipStaticDownloadEndsIdentical() async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let compressed = try DataPath.gzip(Self.text)
            try DataPath.write(Array(compressed.prefix(compressed.count / 3)), to: directory + "/part")
            let response = try await DataPath.client()
                .send(DataPath.download(nginx.url("/gz/text.txt"), into: directory, resume: true))
            #expect(response.status == .ok || response.status == .partialContent)
            #expect(response.headerFields[.contentEncoding] == "gzip")
            #expect(LargeBytes.equal(DataPath.read(directory + "/out"), Self.text))
            #expect(DataPath.listing(directory) == ["out"])
        }
    }

    @Test(arguments: [true, false])
    func dynamicGzipIsInflated(atEnd: Bool) async throws {
        try await Self.withPeer { nginx in
            var request = Request(url: nginx.url("/dyn/text.txt"))
            request.options.inflatesWhenComplete = atEnd
            let response = try await DataPath.client().send(request)
            #expect(response.headerFields[.contentEncoding] == "gzip")
            #expect(LargeBytes.equal(response.body, Self.text))
            let streamed = try await DataPath.client().stream(request)
            var received: [UInt8] = []
            for try await chunk in streamed.body { received += chunk }
            #expect(atEnd ? (try DataPath.gunzip(received)) == Self.text : received == Self.text)
        }
    }

    @Test func aFileUploadArrivesIntact() async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Self.binary, to: directory + "/upload.bin")
            let request = Request(
                url: nginx.url("/dav/upload.bin"), method: .put,
                body: try .file(atPath: directory + "/upload.bin"))
            let response = try await DataPath.client().send(request)
            #expect(response.status == .created)
            #expect(DataPath.read(nginx.documentPath("dav/upload.bin")) == Self.binary)
        }
    }

    @Test func aComposedBodyUploadArrivesIntact() async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Self.binary, to: directory + "/part.bin")
            var builder = RequestBodyBuilder()
            builder.append("head\n")
            try builder.appendFile(atPath: directory + "/part.bin")
            builder.append("tail\n")
            let request = Request(url: nginx.url("/dav/composed.bin"), method: .put, body: builder.body)
            let response = try await DataPath.client().send(request)
            #expect(response.status == .created)
            #expect(
                DataPath.read(nginx.documentPath("dav/composed.bin"))
                    == Array("head\n".utf8) + Self.binary + Array("tail\n".utf8))
        }
    }

    @Test(arguments: [HTTPVersion.http1_1, .http1_0])
    func aCompressedFileUploadGunzipsToTheOriginal(version: HTTPVersion) async throws {
        try await Self.withPeer { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Self.text, to: directory + "/upload.txt")
            var request = Request(
                url: nginx.url("/dav/upload.txt.gz"), method: .put,
                body: try .file(atPath: directory + "/upload.txt"))
            request.options.compressesRequestBody = true
            request.options.httpVersion = version
            let response = try await DataPath.client().send(request)
            #expect(response.status == .created)
            let stored = try #require(DataPath.read(nginx.documentPath("dav/upload.txt.gz")))
            #expect(stored.count < Self.text.count / 4)
            #expect(try LargeBytes.equal(DataPath.gunzip(stored), Self.text))
        }
    }
}
