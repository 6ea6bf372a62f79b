public import FoundationEssentials

/// The hosts that bypass the proxy, as curl reads `no_proxy`, `NO_PROXY` and `--noproxy`.
///
/// The list is separated by commas (and blanks). `*` alone matches every host. An entry matches a host name
/// that equals it or ends with `.` and the entry, so `example.com` and `.example.com` both match `example.com`
/// and `www.example.com` but not `notexample.com`; case and a trailing dot do not count. IP addresses are
/// compared as addresses and only with IP literals in the URL (no name is resolved): `127.0.0.1`, `::1` (with or
/// without brackets) or a CIDR range such as `192.168.0.0/16` or `fd00::/8`. An entry may end with a port
/// (`example.com:8080`, `[::1]:8080`): it then matches that port only, where curl would never match it.
public struct NoProxyList: Sendable, Hashable, CustomStringConvertible {
    /// One entry of the list.
    private enum Entry: Sendable, Hashable {
        case name(String, port: Int?)
        case address([UInt8], bits: Int, port: Int?)
    }

    private let entries: [Entry]
    /// Whether the list is `*`: no host uses a proxy.
    public let matchesEveryHost: Bool
    /// The list as it was given.
    public let description: String

    /// Reads a list.
    /// - Parameter list: Comma-separated entries, for example `localhost,.internal,10.0.0.0/8,[::1]:8080`.
    public init(_ list: String) {
        description = list
        matchesEveryHost = ProxyText.trimmed(list) == "*"
        entries = list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).compactMap(Self.entry)
    }

    /// Reads `no_proxy`, or `NO_PROXY` when that is unset or empty, from an environment.
    /// - Parameter environment: The variables, for example `ProcessInfo.processInfo.environment`.
    public init(environment: [String: String]) {
        let value = [environment["no_proxy"], environment["NO_PROXY"]].lazy.compactMap { $0 }
            .first { !ProxyText.trimmed($0).isEmpty }
        self.init(value ?? "")
    }

    /// An empty list: every host uses the proxy.
    public init() {
        self.init("")
    }

    /// Whether the list has no entry at all.
    public var isEmpty: Bool { entries.isEmpty && !matchesEveryHost }

    /// Whether `url`'s host bypasses the proxy.
    /// - Parameter url: The request URL.
    /// - Returns: `true` when a request to `url` must go directly.
    public func matches(_ url: URL) -> Bool {
        guard let host = url.host(percentEncoded: false) else { return false }
        return matches(host: host, port: url.effectivePort)
    }

    /// Whether a host and port bypass the proxy.
    /// - Parameters:
    ///   - host: A host name or IP literal (IPv6 with or without brackets).
    ///   - port: The port the request goes to.
    /// - Returns: `true` when a request there must go directly.
    public func matches(host: String, port: Int) -> Bool {
        if matchesEveryHost { return true }
        var host = Substring(host)
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        if let address = IPAddressText.bytes(host) {
            return entries.contains { entry in
                guard case .address(let network, let bits, let entryPort) = entry else { return false }
                return (entryPort.map { $0 == port } ?? true) && IPAddressText.contains(address, network, bits: bits)
            }
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        let name = host.lowercased()
        return entries.contains { entry in
            guard case .name(let suffix, let entryPort) = entry, entryPort.map({ $0 == port }) ?? true else {
                return false
            }
            return name == suffix || name.hasSuffix("." + suffix)
        }
    }

    /// Reads one entry; `nil` for one that can never match (empty, or a CIDR range that is not one).
    private static func entry(_ token: Substring) -> Entry? {
        var text = token
        var port: Int?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { port = Int(rest.dropFirst()) }
            text = text[text.index(after: text.startIndex)..<close] + rest.drop { $0 != "/" }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            port = Int(text[text.index(after: colon)...])
            text = text[..<colon]
        }
        var bits: Int?
        var addressText = text
        if let slash = text.firstIndex(of: "/") {
            bits = Int(text[text.index(after: slash)...])
            addressText = text[..<slash]
        }
        if let address = IPAddressText.bytes(addressText) {
            let maximum = address.count * 8
            guard let prefix = bits ?? (text.contains("/") ? nil : maximum), (0...maximum).contains(prefix) else {
                return nil
            }
            return .address(address, bits: prefix, port: port)
        }
        var name = text.lowercased()[...]
        if name.hasSuffix(".") { name = name.dropLast() }
        if name.hasPrefix(".") { name = name.dropFirst() }
        return name.isEmpty ? nil : .name(String(name), port: port)
    }
}
