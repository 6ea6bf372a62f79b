import CNGHTTP2
import FoundationEssentials
import HTTPCore

/// A request's header block as nghttp2 takes it: the pseudo-header fields, then the request's fields lower-cased,
/// without the connection-specific ones HTTP/2 forbids (RFC 9113 §8.2.2).
struct HTTP2HeaderBlock {
    /// Every name and value, back to back.
    private var storage: [UInt8] = []
    /// Where each field's name and value are in ``storage``.
    private var spans: [(name: Int, nameLength: Int, value: Int, valueLength: Int)] = []

    /// Fields HTTP/2 does not carry: connection management is the framing's (`Host` becomes `:authority`).
    private static let dropped: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "host", "te",
        "proxy-authorization",
    ]

    private static let hostName = HTTPField.Name("Host")!

    /// Builds the block.
    /// - Parameter request: The request.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidRequest`` for a URL without a host.
    init(request: Request) throws {
        guard let host = request.url.host(percentEncoded: false), !host.isEmpty else {
            throw ClientError(.invalidRequest, stage: .transport, message: "The URL has no host")
        }
        let scheme = request.url.scheme?.lowercased() ?? "https"
        var authority = host.contains(":") ? "[\(host)]" : host
        if let port = request.url.port { authority += ":\(port)" }
        if let field = request.headerFields[Self.hostName], !field.isEmpty { authority = field }
        storage.reserveCapacity(256)
        spans.reserveCapacity(8 + request.headerFields.count)
        var path = request.url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = request.url.query(percentEncoded: true) { path += "?" + query }
        append(":method", request.method.rawValue)
        append(":scheme", scheme)
        append(":authority", authority)
        append(":path", path)
        for field in request.headerFields {
            let name = field.name.canonicalName
            if Self.dropped.contains(name) {
                // `TE: trailers` is the one TE value HTTP/2 allows.
                if name == "te", field.value.lowercased() == "trailers" { append("te", "trailers") }
                continue
            }
            append(name, field.value)
        }
        if let length = request.body?.length, request.headerFields[.contentLength] == nil {
            append("content-length", String(length))
        }
    }

    private mutating func append(_ name: String, _ value: String) {
        let nameStart = storage.count
        storage.append(contentsOf: name.utf8)
        let valueStart = storage.count
        storage.append(contentsOf: value.utf8)
        spans.append((nameStart, valueStart - nameStart, valueStart, storage.count - valueStart))
    }

    /// Calls `body` with the `nghttp2_nv` array, valid only inside the call (nghttp2 copies the fields, so the
    /// pointers into ``storage`` need not be mutable; the array itself lives on the stack).
    func withNameValuePairs<Result>(_ body: (UnsafePointer<nghttp2_nv>, Int) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer { bytes in
            // Never empty (the pseudo-header fields are always there), so the base address exists.
            let base = UnsafeMutablePointer(mutating: bytes.baseAddress!)
            return try withUnsafeTemporaryAllocation(of: nghttp2_nv.self, capacity: spans.count) { pairs in
                for (index, span) in spans.enumerated() {
                    pairs.initializeElement(
                        at: index,
                        to: nghttp2_nv(name: base + span.name, value: base + span.value, namelen: span.nameLength,
                                       valuelen: span.valueLength, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
                }
                defer { pairs.deinitialize() }
                return try body(UnsafePointer(pairs.baseAddress!), pairs.count)
            }
        }
    }
}
