/// Why a SOCKS proxy did not open a connection to the origin, kept as a ``HTTPCore/ClientError``'s `underlying`
/// error.
///
/// A failure reply from the proxy keeps its raw code in ``replyCode`` (RFC 1928 §6 for SOCKS5, the SOCKS4
/// protocol's `CD` field for SOCKS4 and SOCKS4a). Never carries the user name or password.
public struct SOCKSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; an open set of stable names.
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case generalFailure = "general failure"
            case notAllowed = "connection not allowed by ruleset"
            case networkUnreachable = "network unreachable"
            case hostUnreachable = "host unreachable"
            case connectionRefused = "connection refused"
            case ttlExpired = "TTL expired"
            case commandNotSupported = "command not supported"
            case addressTypeNotSupported = "address type not supported"
            case unknownReply = "unknown reply code"
            case noAcceptableMethod = "no acceptable authentication method"
            case authenticationFailed = "user name or password rejected"
            case rejected = "request rejected or failed"
            case identdUnreachable = "the proxy could not reach identd on the client"
            case identdMismatch = "identd reported a different user id"
            case malformedReply = "malformed reply"
            case closed = "the proxy closed the connection during the handshake"
            case noIPv4Address = "no IPv4 address for the origin (SOCKS4 carries only IPv4)"
        }
        private let base: Base

        /// SOCKS5 reply 1.
        public static let generalFailure = Reason(base: .generalFailure)
        /// SOCKS5 reply 2: the proxy's rules forbid the connection.
        public static let notAllowed = Reason(base: .notAllowed)
        /// SOCKS5 reply 3.
        public static let networkUnreachable = Reason(base: .networkUnreachable)
        /// SOCKS5 reply 4.
        public static let hostUnreachable = Reason(base: .hostUnreachable)
        /// SOCKS5 reply 5: the origin refused the proxy's connection.
        public static let connectionRefused = Reason(base: .connectionRefused)
        /// SOCKS5 reply 6.
        public static let ttlExpired = Reason(base: .ttlExpired)
        /// SOCKS5 reply 7.
        public static let commandNotSupported = Reason(base: .commandNotSupported)
        /// SOCKS5 reply 8 (for example a proxy that resolves no names, asked with a domain name).
        public static let addressTypeNotSupported = Reason(base: .addressTypeNotSupported)
        /// A SOCKS5 reply code RFC 1928 does not define (see ``SOCKSError/replyCode``).
        public static let unknownReply = Reason(base: .unknownReply)
        /// SOCKS5: the proxy accepts none of the offered methods (it wants a password and the route has none).
        public static let noAcceptableMethod = Reason(base: .noAcceptableMethod)
        /// SOCKS5: the proxy rejected the user name and password (RFC 1929).
        public static let authenticationFailed = Reason(base: .authenticationFailed)
        /// SOCKS4 reply 91 (`0x5B`).
        public static let rejected = Reason(base: .rejected)
        /// SOCKS4 reply 92 (`0x5C`).
        public static let identdUnreachable = Reason(base: .identdUnreachable)
        /// SOCKS4 reply 93 (`0x5D`).
        public static let identdMismatch = Reason(base: .identdMismatch)
        /// The proxy answered bytes that are not a SOCKS reply (wrong version, an unknown address type, a method
        /// that was not offered).
        public static let malformedReply = Reason(base: .malformedReply)
        /// The proxy closed the connection before its reply was complete.
        public static let closed = Reason(base: .closed)
        /// SOCKS4 with local resolution, and the origin's name resolved to no IPv4 address.
        public static let noIPv4Address = Reason(base: .noIPv4Address)

        /// A short stable text, for example `host unreachable`.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public var reason: Reason
    /// The proxy's reply code for a failure reply, `nil` otherwise.
    public var replyCode: UInt8?

    /// Creates the error.
    /// - Parameters:
    ///   - reason: What went wrong.
    ///   - replyCode: The proxy's reply code, if it sent one.
    public init(_ reason: Reason, replyCode: UInt8? = nil) {
        self.reason = reason
        self.replyCode = replyCode
    }

    /// For example `SOCKS: host unreachable (reply 4)`.
    public var description: String {
        "SOCKS: \(reason)" + (replyCode.map { " (reply \($0))" } ?? "")
    }

    /// The reason for a SOCKS5 reply code other than 0 (RFC 1928 §6).
    static func socks5(reply code: UInt8) -> SOCKSError {
        let reasons: [Reason] = [
            .generalFailure, .notAllowed, .networkUnreachable, .hostUnreachable, .connectionRefused, .ttlExpired,
            .commandNotSupported, .addressTypeNotSupported,
        ]
        let index = Int(code) - 1
        return SOCKSError(reasons.indices.contains(index) ? reasons[index] : .unknownReply, replyCode: code)
    }

    /// The reason for a SOCKS4 reply code other than 90 (`0x5A`, granted).
    static func socks4(reply code: UInt8) -> SOCKSError {
        switch code {
        case 0x5B: SOCKSError(.rejected, replyCode: code)
        case 0x5C: SOCKSError(.identdUnreachable, replyCode: code)
        case 0x5D: SOCKSError(.identdMismatch, replyCode: code)
        default: SOCKSError(.malformedReply, replyCode: code)
        }
    }

    /// Whether the next route may be tried: the proxy was reachable but could not reach the origin (as a `502`
    /// to `CONNECT`), or it closed the connection. Refusals by rule or authentication and garbage end the
    /// request instead.
    var allowsFailover: Bool {
        [.generalFailure, .networkUnreachable, .hostUnreachable, .connectionRefused, .ttlExpired, .rejected, .closed]
            .contains(reason)
    }
}
