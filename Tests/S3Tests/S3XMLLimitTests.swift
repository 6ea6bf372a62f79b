import HTTPCore
import S3
import Testing

/// The 8 MiB cap on an S3 XML answer (`Docs/Limits.md`): a document of exactly the cap is parsed, one byte more
/// is refused before libxml2 builds a tree.
@Suite struct S3XMLLimitTests {
    static let cap = 8 << 20

    /// A `ListAllMyBucketsResult` of exactly `size` bytes, padded in two text nodes (each under libxml2's 10 MB
    /// text limit).
    static func document(size: Int) -> [UInt8] {
        let head = "<ListAllMyBucketsResult><Buckets><Bucket><Name>one</Name></Bucket></Buckets><Owner><ID>"
        let middle = "</ID><DisplayName>"
        let tail = "</DisplayName></Owner></ListAllMyBucketsResult>"
        let padding = size - head.utf8.count - middle.utf8.count - tail.utf8.count
        let first = [UInt8](repeating: UInt8(ascii: "a"), count: padding / 2)
        let second = [UInt8](repeating: UInt8(ascii: "b"), count: padding - padding / 2)
        return Array(head.utf8) + first + Array(middle.utf8) + second + Array(tail.utf8)
    }

    @Test func aDocumentOfExactlyTheCapIsParsed() throws {
        #expect(try S3ResponseParser.buckets(Self.document(size: Self.cap)).map(\.name) == ["one"])
    }

    @Test func oneByteMoreIsRefused() throws {
        let error = try #require(throws: ClientError.self) {
            try S3ResponseParser.buckets(Self.document(size: Self.cap + 1))
        }
        #expect(error.code == .protocolViolation)
        #expect(error.message == "The S3 response body is larger than \(Self.cap) bytes")
    }

    @Test func anOversizedErrorBodyFallsBackToTheStatus() {
        let body = Array("<Error><Code>NoSuchKey</Code></Error>".utf8)
        #expect(S3ResponseParser.error(status: 404, body: body).code == .noSuchKey)
        let message = [UInt8](repeating: UInt8(ascii: "m"), count: 4 << 20)
        let large = Array("<Error><Code>NoSuchKey</Code><Message>".utf8) + message + message
            + Array("</Message></Error>".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: 16)
        #expect(S3ResponseParser.error(status: 404, body: large).code == .notFound)
    }
}
