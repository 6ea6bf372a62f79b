import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// ``Client/Configuration/maxBodySize`` at its boundary (`Docs/Limits.md`): a body collected in memory, and a
/// compressed body inflated once complete, which stops as soon as the output passes the limit.
@Suite struct BodySizeLimitTests {
    /// A coding whose every input byte decodes to ten bytes; counts the bytes it was fed.
    final class TenfoldCodec: ContentCodec {
        final class Counter: Sendable {
            let bytes = Mutex(0)
        }

        let fed = Counter()
        var encodings: [String] { ["tenfold"] }
        func makeDecoder(for encoding: String) throws -> any ContentDecoder { Decoder(fed: fed) }
        func makeEncoder(for encoding: String) throws -> any ContentEncoder { preconditionFailure("not used") }

        final class Decoder: ContentDecoder {
            let fed: Counter
            init(fed: Counter) { self.fed = fed }
            func decode(_ chunk: [UInt8]) throws -> [UInt8] {
                fed.bytes.withLock { $0 += chunk.count }
                return chunk.flatMap { Array(repeating: $0, count: 10) }
            }
            func finish() throws -> [UInt8] { [] }
        }
    }

    static func client(answering body: [UInt8], coding: String? = nil, codec: TenfoldCodec? = nil, maxBodySize: Int)
        -> Client
    {
        var fields = HTTPFields()
        if let coding { fields[.contentEncoding] = coding }
        var configuration = Client.Configuration()
        configuration.maxBodySize = maxBodySize
        let head = fields
        return Client(
            transport: ScriptedTransport { _, _ in
                Response(status: .ok, headerFields: head, body: .init(bytes: body))
            },
            codecs: codec.map { [$0] } ?? [], configuration: configuration)
    }

    static let url = URL(string: "http://example.com/")!

    @Test func aBodyOfExactlyTheLimitIsCollectedOneByteMoreFails() async throws {
        let fits = Self.client(answering: Array(repeating: 1, count: 1000), maxBodySize: 1000)
        #expect(try await fits.send(Request(url: Self.url)).body.count == 1000)
        let tooLarge = Self.client(answering: Array(repeating: 1, count: 1001), maxBodySize: 1000)
        let error = try await #require(throws: ClientError.self) { _ = try await tooLarge.send(Request(url: Self.url)) }
        #expect(error.code == .protocolViolation)
        #expect(error.stage == .transport)
        #expect(error.message == "Response body is larger than 1000 bytes")
    }

    @Test func aBodyInflatingToExactlyTheLimitIsDecodedOneByteMoreFails() async throws {
        let codec = TenfoldCodec()
        let fits = Self.client(answering: Array(repeating: 1, count: 100), coding: "tenfold", codec: codec,
                               maxBodySize: 1000)
        #expect(try await fits.send(Request(url: Self.url)).body.count == 1000)
        let tooLarge = Self.client(answering: Array(repeating: 1, count: 101), coding: "tenfold", codec: codec,
                                   maxBodySize: 1000)
        let error = try await #require(throws: ClientError.self) { _ = try await tooLarge.send(Request(url: Self.url)) }
        #expect(error.code == .protocolViolation)
        #expect(error.stage == .codec)
        #expect(error.message == "Response body inflates to more than 1000 bytes")
    }

    @Test func inflationStopsWithinOnePieceOfPassingTheLimit() async throws {
        let codec = TenfoldCodec()
        let raw = [UInt8](repeating: 7, count: 1 << 20)
        let client = Self.client(answering: raw, coding: "tenfold", codec: codec, maxBodySize: 1 << 20)
        await #expect(throws: ClientError.self) { _ = try await client.send(Request(url: Self.url)) }
        // 64 KiB pieces inflate to 640 KiB each: the second one passes 1 MiB, and nothing after it is decoded.
        #expect(codec.fed.bytes.withLock { $0 } == 2 * 64 * 1024)
    }
}
