/// How to reach an origin: directly or through a proxy.
public enum ProxyRoute: Sendable, Hashable {
    /// Connect to the origin itself.
    case direct
    /// Through an HTTP proxy (`CONNECT` for `https` URLs).
    case http(host: String, port: Int)
    /// Through a SOCKS5 proxy.
    case socks(host: String, port: Int)
}
