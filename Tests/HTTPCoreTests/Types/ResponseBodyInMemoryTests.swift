import HTTPCore
import Testing

/// A body held as bytes (``ResponseBody/init(bytes:expectedLength:)``, what a transport returns for a response that
/// came whole with its head) reads like one over a source, without a source object.
@Suite struct ResponseBodyInMemoryTests {
    @Test func iteratingYieldsTheBytesOnceThenEnds() async throws {
        var iterator = ResponseBody(bytes: [1, 2, 3], expectedLength: nil).makeAsyncIterator()
        #expect(try await iterator.next() == [1, 2, 3])
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func anEmptyBodyYieldsNoChunk() async throws {
        var iterator = ResponseBody(bytes: [], expectedLength: 0).makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        #expect(try await ResponseBody(bytes: []).collect(upTo: 0) == [])
    }

    @Test func theAnnouncedLengthIsKeptAsGiven() {
        #expect(ResponseBody(bytes: [1, 2], expectedLength: nil).expectedLength == nil)
        #expect(ResponseBody(bytes: [1, 2], expectedLength: 2).expectedLength == 2)
        #expect(ResponseBody(bytes: [1, 2]).expectedLength == 2)
    }

    @Test func collectReturnsTheBytesWithinTheLimitAndRefusesMore() async throws {
        let body = ResponseBody(bytes: [1, 2, 3, 4], expectedLength: nil)
        #expect(try await body.collect(upTo: 4) == [1, 2, 3, 4])
        let error = await #expect(throws: ClientError.self) { try await body.collect(upTo: 3) }
        #expect(error?.code == .protocolViolation)
        #expect(error?.message == "Response body is larger than 3 bytes")
    }

    @Test func theSourceReadsTheBytesAndHasNoTrailers() async throws {
        let body = ResponseBody(bytes: [7, 8], expectedLength: nil)
        let source = body.source
        #expect(try await source.next() == [7, 8])
        #expect(try await source.next() == nil)
        #expect(source.trailers == nil)
        #expect(body.trailers == nil)
    }
}
