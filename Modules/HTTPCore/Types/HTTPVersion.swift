/// An HTTP protocol version as it appears on the wire, such as `HTTP/1.1`.
public struct HTTPVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version number.
    public var major: Int
    /// The minor version number.
    public var minor: Int

    /// Creates a version from its two numbers.
    /// - Parameters:
    ///   - major: The major version number.
    ///   - minor: The minor version number.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.0`, sent when a request asks for it (ASIHTTPRequest's `useHTTPVersionOne`).
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// `HTTP/1.1`, the default.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// HTTP/2 (RFC 9113), spoken by a ``MultiplexedProtocol`` plug-in.
    public static let http2 = HTTPVersion(major: 2, minor: 0)

    /// The wire form, for example `HTTP/1.1`; `HTTP/2` from version 2 on, which has no minor number.
    public var description: String { major >= 2 ? "HTTP/\(major)" : "HTTP/\(major).\(minor)" }

    /// Orders versions by major, then minor number.
    public static func < (lhs: HTTPVersion, rhs: HTTPVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
