import DiskCache
import Foundation
import HTTPCore
import Testing

/// A head with hostile bytes reads back from disk, in another store, exactly as it was stored (issue 33: the
/// siblings of the cookie file's lossy round trip). Field values are stored as bytes, never as a `String`, so
/// obs-text (0x80–0xFF, not UTF-8) survives; strings are length-prefixed, so no separator can be smuggled in.
@Suite struct DiskCacheHeadRoundTripTests {
    static func fields(_ fields: HTTPFields) -> [[UInt8]] {
        fields.flatMap { [Array($0.name.rawName.utf8), $0.withUnsafeBytesOfValue { Array($0) }] }
    }

    static func hostileHead() -> CachedResponseHead {
        var fields = HTTPFields()
        let values: [[UInt8]] = [
            [0x80, 0xFF, 0xC3, 0x28, 0xE9],  // obs-text that is not UTF-8
            Array("caf\u{E9} \u{1F36A}".utf8),
            Array("a\tb  trailing  ".utf8),
            Array("crlf\r\nnul\u{0}".utf8),  // the lenient initializer makes these spaces, as the transport does
            Array(repeating: 0xA0, count: 256 * 1024),
            [],
        ]
        for (index, value) in values.enumerated() {
            fields.append(HTTPField(name: HTTPField.Name("X-Hostile-\(index)")!, lenientValue: value))
        }
        fields.append(HTTPField(name: HTTPField.Name("x-MiXeD-case")!, value: "kept"))
        var varying = HTTPFields()
        varying.append(HTTPField(name: .acceptLanguage, lenientValue: [0xFE, 0x20, 0x09, 0x41]))
        return CachedResponseHead(
            status: HTTPResponse.Status(code: 299, reasonPhrase: "R\u{E9}sum\u{E9}\u{7}\u{1F36A}"),
            headerFields: fields, storedAt: Date(timeIntervalSince1970: 1_700_000_000.123_456),
            expiresAt: Date(timeIntervalSince1970: 1_800_000_000), storagePolicy: .permanent,
            varyingRequestFields: varying)
    }

    @Test func hostileFieldsReadBackByteForByteInAnotherStore() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        let head = Self.hostileHead()
        let key = "GET https://example.com/\u{301}caf\u{E9}?q=\u{0}\r\n\t " + String(repeating: "k", count: 4096)
        let writer = try #require(try await fixture.store().makeWriter(forKey: key, head: head, expectedLength: 3))
        _ = try await writer.write([1, 2, 3])
        try await writer.commit()

        let entry = try #require(try await fixture.store().entry(forKey: key))
        #expect(Self.fields(entry.head.headerFields) == Self.fields(head.headerFields))
        #expect(Self.fields(entry.head.varyingRequestFields) == Self.fields(head.varyingRequestFields))
        #expect(Array(entry.head.status.reasonPhrase.utf8) == Array(head.status.reasonPhrase.utf8))
        #expect(entry.head == head)
        #expect(try await entry.body.open()?.collect(upTo: .max) == [1, 2, 3])
    }

    /// A head larger than the 1 MiB a store reads back is declined when the entry is made; before, it was served
    /// by the store that wrote it and silently dropped as corrupt by the next one.
    @Test func aHeadTooLargeToReadBackIsNotStored() async throws {
        let fixture = try DiskCacheFixture()
        defer { fixture.remove() }
        var head = DiskCacheFixture.head("big")
        let quarter = [UInt8](repeating: 0x62, count: 256 << 10)
        for index in 0..<5 {
            head.headerFields.append(HTTPField(name: HTTPField.Name("X-Big-\(index)")!, lenientValue: quarter))
        }
        let store = fixture.store()
        #expect(try await store.makeWriter(forKey: "big", head: head, expectedLength: 1) == nil)
        #expect(try await store.entry(forKey: "big") == nil)

        try await DiskCacheFixture.commit(store, "small", [7])
        let small = try #require(try await store.entry(forKey: "small"))
        try await store.updateHead(head, forKey: "small", replacing: small.head)
        #expect(try await store.entry(forKey: "small")?.head == small.head, "the stored head stays")
        #expect(try await fixture.store().entry(forKey: "small")?.head == small.head)
    }
}
