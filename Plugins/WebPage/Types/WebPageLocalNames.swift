public import FoundationEssentials
import HTTPCore

/// Names the local copies of a page's resources: one relative path per URL, unique, safe on any file system, and
/// relative references between them.
///
/// A URL `http://cdn.example:8080/img/a b.png?v=2` is saved as `cdn.example_8080/img/a_b_<hash>.png`: the host
/// (and a port other than the scheme's), then each path segment with every byte outside `A–Z a–z 0–9 . _ -` as
/// `_` (decoded first, so `%20` is one `_`), a query as a hash, `index.html` for a path ending in `/`, and `.html`
/// or `.css` added to a frame or stylesheet that lacks it. Names that collide get `-2`, `-3`…
public struct WebPageLocalNames: Sendable {
    private var files: Set<String> = []
    private var directories: Set<String> = []

    /// Starts with some paths taken (the page's own file).
    /// - Parameter reserved: Paths that are already used.
    public init(reserved: [String] = []) {
        for path in reserved { take(path) }
    }

    /// Assigns a unique path to a URL.
    /// - Parameters:
    ///   - url: The resource's URL.
    ///   - kind: What it is, for the extension a document needs.
    /// - Returns: A relative path with `/` separators, no `..` and no leading `/`.
    public mutating func assign(_ url: URL, kind: WebPageReference.Kind) -> String {
        var host = Self.sanitized(Array((url.host ?? "host").lowercased().utf8))
        if let port = url.port, port != (url.scheme == "https" ? 443 : 80) { host += "_\(port)" }
        var segments = url.path(percentEncoded: true).split(separator: "/", omittingEmptySubsequences: false)
            .dropFirst().map {
                Self.sanitized(Self.percentDecoded(String($0)))
            }
        if segments.isEmpty || url.path(percentEncoded: true).hasSuffix("/") || segments.last == "_" {
            if !segments.isEmpty { segments.removeLast() }
            segments.append("index.html")
        }
        var name = segments.removeLast()
        if let query = url.query, !query.isEmpty {
            name = Self.inserting("_" + Self.hash(query), into: name)
        }
        let lowered = name.lowercased()
        if kind == .frame, !(lowered.hasSuffix(".html") || lowered.hasSuffix(".htm")) { name += ".html" }
        if kind == .stylesheet, !lowered.hasSuffix(".css") { name += ".css" }
        let directory = ([host] + segments).joined(separator: "/")
        var candidate = directory + "/" + String(name.prefix(120))
        var counter = 2
        while files.contains(candidate) || directories.contains(candidate) || blocked(candidate) {
            candidate = directory + "/" + Self.inserting("-\(counter)", into: String(name.prefix(120)))
            counter += 1
        }
        take(candidate)
        return candidate
    }

    /// Whether a directory the path needs is already a file.
    private func blocked(_ path: String) -> Bool {
        var prefix = ""
        for segment in path.split(separator: "/").dropLast() {
            prefix += prefix.isEmpty ? String(segment) : "/" + segment
            if files.contains(prefix) { return true }
        }
        return false
    }

    private mutating func take(_ path: String) {
        files.insert(path)
        var prefix = ""
        for segment in path.split(separator: "/").dropLast() {
            prefix += prefix.isEmpty ? String(segment) : "/" + segment
            directories.insert(prefix)
        }
    }

    /// The reference from the file at `from` to the file at `to`, both relative paths from ``assign(_:kind:)``.
    /// - Parameters:
    ///   - from: The referring file.
    ///   - to: The referred file.
    /// - Returns: A relative URL (`../cdn.example/a.png`), percent-encoded.
    public static func relativeReference(from: String, to: String) -> String {
        let source = from.split(separator: "/").dropLast()
        let target = to.split(separator: "/")
        var common = 0
        while common < source.count, common < target.count - 1,
            source[source.startIndex + common] == target[common]
        {
            common += 1
        }
        let ups = Array(repeating: "..", count: source.count - common)
        let path = (ups + target[common...].map(String.init)).joined(separator: "/")
        return WebPageURL.percentEncoded(path)
    }

    static func sanitized(_ bytes: [UInt8]) -> String {
        var out = String(
            decoding: bytes.map { byte -> UInt8 in
                isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "-") ? byte : UInt8(ascii: "_")
            }, as: UTF8.self)
        if out.isEmpty || out == "." || out == ".." { out = "_" }
        return String(out.prefix(120))
    }

    static func percentDecoded(_ text: String) -> [UInt8] { Hex.percentDecoded(text) }

    static func inserting(_ suffix: String, into name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + suffix }
        return String(name[..<dot]) + suffix + String(name[dot...])
    }

    /// FNV-1a, 64 bits, in hex: stable across runs and platforms (Swift's `hashValue` is seeded per process).
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return String(String(value, radix: 16).prefix(10))
    }
}
