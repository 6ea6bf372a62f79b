/// A parsed request head, by the loopback server's own small parser (deliberately separate from any client code).
struct LoopbackRequestHead: Equatable {
    /// How the request body is delimited.
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// Why a head was rejected.
    struct Malformed: Error, Equatable {
        let reason: String
    }

    var method: String
    var target: String
    var version: String
    var headers: [RecordedRequest.HeaderField]

    /// Parses the bytes before the empty line (request line and header lines, CRLF-separated; bare LF accepted).
    /// - Parameter bytes: The head without its final empty line.
    /// - Returns: The head.
    /// - Throws: ``Malformed`` for a bad request line, a bad header line or folded headers.
    static func parse(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> LoopbackRequestHead {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty else { throw Malformed(reason: "empty head") }
        let requestLine = lines.removeFirst().split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard requestLine.count == 3, let method = token(requestLine[0]), !requestLine[1].isEmpty,
            let target = text(requestLine[1]), let version = text(requestLine[2]), isVersion(version)
        else { throw Malformed(reason: "bad request line") }
        var headers: [RecordedRequest.HeaderField] = []
        for line in lines { headers.append(try field(line)) }
        return LoopbackRequestHead(method: method, target: target, version: version, headers: headers)
    }

    /// Parses one `name: value` line (a header or a trailer) without its line ending.
    /// - Throws: ``Malformed`` when the name is not a token (this rejects folded lines) or the value has controls.
    static func field(_ line: ArraySlice<UInt8>) throws(Malformed) -> RecordedRequest.HeaderField {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), let name = token(line[..<colon]),
            let value = text(line[(colon + 1)...])
        else { throw Malformed(reason: "bad header line") }
        return RecordedRequest.HeaderField(name: name, value: trimmed(value))
    }

    /// The body framing (RFC 9112 §6): chunked when `Transfer-Encoding` ends with `chunked`, else `Content-Length`.
    /// - Throws: ``Malformed`` for both headers at once, another transfer coding, or a bad or conflicting length.
    func framing() throws(Malformed) -> Framing {
        let codings = values("transfer-encoding").flatMap { $0.split(separator: ",") }
            .map { Self.trimmed(String($0)) }
        let lengths = values("content-length").flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { Self.trimmed(String($0)) }
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw Malformed(reason: "both Transfer-Encoding and Content-Length") }
            guard codings.last?.lowercased() == "chunked" else { throw Malformed(reason: "unknown transfer coding") }
            return .chunked
        }
        guard let first = lengths.first else { return .none }
        guard !first.isEmpty, first.utf8.count < 19, first.utf8.allSatisfy({ (48...57).contains($0) }),
            let length = Int(first), lengths.allSatisfy({ $0 == first })
        else { throw Malformed(reason: "bad Content-Length") }
        return length == 0 ? .none : .length(length)
    }

    /// Whether the connection may carry another request (RFC 9112 §9.3): HTTP/1.1 unless `Connection: close`,
    /// HTTP/1.0 only with `Connection: keep-alive`.
    var isPersistent: Bool {
        let options = values("connection").flatMap { $0.split(separator: ",") }
            .map { Self.trimmed(String($0)).lowercased() }
        if options.contains("close") { return false }
        return version == "HTTP/1.1" || options.contains("keep-alive")
    }

    /// Whether the client waits for `100 Continue` before sending the body.
    var expectsContinue: Bool {
        version == "HTTP/1.1" && values("expect").contains { $0.lowercased() == "100-continue" }
    }

    private func values(_ lowercasedName: String) -> [String] {
        headers.filter { $0.name.lowercased() == lowercasedName }.map(\.value)
    }

    private static func isVersion(_ version: String) -> Bool {
        let bytes = Array(version.utf8)
        return bytes.count == 8 && version.hasPrefix("HTTP/") && bytes[6] == UInt8(ascii: ".")
            && (48...57).contains(bytes[5]) && (48...57).contains(bytes[7])
    }

    /// The bytes as a string when they form an RFC 9110 token.
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        let extra = Array("!#$%&'*+-.^_`|~".utf8)
        let valid =
            !bytes.isEmpty
            && bytes.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
                    || extra.contains(byte)
            }
        return valid ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// The bytes as a string when they contain no control characters other than tab.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.allSatisfy { $0 == 9 || ($0 >= 32 && $0 != 127) } ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// `value` without leading and trailing spaces and tabs.
    static func trimmed(_ value: String) -> String {
        var scalars = Substring(value)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
