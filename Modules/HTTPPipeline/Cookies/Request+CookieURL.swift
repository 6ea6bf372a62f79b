import FoundationEssentials
import HTTPCore

extension Request {
    /// The URL whose host scopes this request's cookies: ``Request/url``, or, when the caller set a `Host` header
    /// field (a virtual host reached by address, as with curl's `-H "Host: …"`), the URL with that host, so
    /// cookies are sent to and kept for the host the server answers as, as curl does.
    var cookieURL: URL {
        guard let name = HTTPField.Name("Host"), let field = headerFields[name], !field.isEmpty else { return url }
        var host = Substring(field)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        guard !host.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.host = String(host)
        return components.url ?? url
    }
}
