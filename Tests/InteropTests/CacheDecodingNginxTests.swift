import CodecTestSupport
import FoundationEssentials
import GzipCodec
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// A storable gzip body from a real nginx is inflated once, however the reader takes it: the cache decodes it for
/// its store as it streams, and a reader that decodes too shares that decoding (`DecodingPlan`) instead of inflating
/// the body a second time. GzipCodec's codec is wrapped to count the compressed bytes its decoders are given.
@Suite("cache decoding: nginx", .enabled(if: NginxPeer.shouldRun))
struct CacheDecodingNginxTests {
    /// 600 KiB of text: several reads and several inflation pieces.
    static let plain = DataPath.text(600 << 10)

    /// `ZlibContentCodec` with a count of the bytes every decoder it made was given, and of the decoders.
    final class CountingCodec: ContentCodec {
        let base = ZlibContentCodec()
        let decoders = Atomic<Int>(0)
        let decodedBytes = Atomic<Int>(0)

        var encodings: [String] { base.encodings }

        func makeDecoder(for encoding: String) throws -> any ContentDecoder {
            decoders.add(1, ordering: .relaxed)
            return CountingDecoder(base: try base.makeDecoder(for: encoding), codec: self)
        }

        func makeEncoder(for encoding: String) throws -> any ContentEncoder {
            try base.makeEncoder(for: encoding)
        }
    }

    final class CountingDecoder: ContentDecoder {
        let base: any ContentDecoder
        let codec: CountingCodec

        init(base: any ContentDecoder, codec: CountingCodec) {
            self.base = base
            self.codec = codec
        }

        func decode(_ chunk: [UInt8]) throws -> [UInt8] {
            codec.decodedBytes.add(chunk.count, ordering: .relaxed)
            return try base.decode(chunk)
        }

        func finish() throws -> [UInt8] { try base.finish() }
    }

    enum Reading: String, CaseIterable {
        case sendWhenComplete, sendAsItArrives, streamAsItArrives, streamAsSent
    }

    @Test(arguments: Reading.allCases)
    func aCachedGzipBodyIsInflatedOnce(reading: Reading) async throws {
        let compressed = try DataPath.gzip(Self.plain)
        try await withDataNginx { nginx in
            let url = try nginx.serve(compressed, as: "doc.txt", coding: "gzip")
            let codec = CountingCodec()
            let cache = MemoryCacheStore()
            let client = Client(transport: .posix(), cache: cache, codecs: [codec])
            var request = Request(url: url)
            request.options.inflatesWhenComplete = reading == .sendWhenComplete || reading == .streamAsSent
            let received: [UInt8]
            switch reading {
            case .sendWhenComplete, .sendAsItArrives:
                let response = try await client.send(request)
                #expect(response.headerFields[.contentEncoding] == "gzip" && !response.info.isFromCache)
                received = response.body
                if reading == .sendWhenComplete { #expect(response.rawBody == compressed ? true : false) }
            case .streamAsItArrives, .streamAsSent:
                let response = try await client.stream(request)
                received = try await response.body.collect(upTo: .max)
            }
            let expected = reading == .streamAsSent ? compressed : Self.plain
            #expect(received == expected ? true : false, "\(reading): the bytes read differ")
            let entry = try #require(cache.entries.values.first, "the response was not stored")
            #expect(entry.body == Self.plain ? true : false, "the store holds other bytes than the decoded body")
            #expect(codec.decoders.load(ordering: .relaxed) == 1, "\(reading): decoders made")
            #expect(codec.decodedBytes.load(ordering: .relaxed) == compressed.count,
                    "\(reading): \(codec.decodedBytes.load(ordering: .relaxed)) bytes inflated of \(compressed.count)")
            try await client.shutdown()
        }
    }

    /// A corrupt body is not stored, and the reader that takes the cache's decoding meets the codec's error, as it
    /// does when it inflates the body itself.
    @Test(arguments: [true, false])
    func aCorruptCachedBodyFailsToDecodeAndIsNotStored(inflatesWhenComplete: Bool) async throws {
        var corrupt = try DataPath.gzip(Self.plain)
        corrupt[corrupt.count / 2] ^= 0xFF
        try await withDataNginx { nginx in
            let url = try nginx.serve(corrupt, as: "corrupt.txt", coding: "gzip")
            let cache = MemoryCacheStore()
            let client = Client(transport: .posix(), cache: cache, codecs: [ZlibContentCodec()])
            var request = Request(url: url)
            request.options.inflatesWhenComplete = inflatesWhenComplete
            do {
                let response = try await client.send(request)
                Issue.record("decoded \(response.body.count) bytes of a corrupt body")
            } catch let error as ClientError {
                #expect(error.code == .compressionFailed && error.stage == .codec, "\(error)")
            }
            #expect(cache.entries.isEmpty, "a body that does not inflate was stored")
            try await client.shutdown()
        }
    }
}
