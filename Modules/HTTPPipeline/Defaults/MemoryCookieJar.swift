public import FoundationEssentials
public import HTTPCore
import Synchronization

/// The default cookie store: cookies kept in memory for the life of the client (ASIHTTPRequest's shared
/// cookie storage and `sessionCookies`).
public final class MemoryCookieJar: CookieStore {
    private let cookiesByIdentity = Mutex<[Cookie.Identity: Cookie]>([:])

    /// Creates an empty jar.
    public init() {}

    /// Returns the unexpired cookies that match `url`, longer paths first, then older first.
    /// - Parameter url: The request URL.
    /// - Returns: The cookies to send.
    public func cookies(for url: URL) async -> [Cookie] {
        let matching = cookiesByIdentity.withLock { cookies -> [Cookie] in
            guard !cookies.isEmpty else { return [] }  // the common case costs no clock read, filter or sort
            let now = Date()
            return cookies.values.filter { $0.matches(url, at: now) }
        }
        guard matching.count > 1 else { return matching }
        return matching.sorted { lhs, rhs in
            lhs.path.count != rhs.path.count ? lhs.path.count > rhs.path.count : lhs.created < rhs.created
        }
    }

    /// Stores cookies, replacing same-identity ones (keeping their creation date) and removing expired ones.
    /// - Parameters:
    ///   - cookies: The cookies.
    ///   - url: The URL that set them.
    public func store(_ cookies: [Cookie], receivedFrom url: URL) async {
        let now = Date()
        cookiesByIdentity.withLock { stored in
            for var cookie in cookies {
                if cookie.isExpired(at: now) {
                    stored[cookie.identity] = nil
                    continue
                }
                if let existing = stored[cookie.identity] { cookie.created = existing.created }
                stored[cookie.identity] = cookie
            }
        }
    }

    /// Whether the jar holds no cookie, expired ones included; the pipeline then skips the lookup.
    var isEmpty: Bool {
        cookiesByIdentity.withLock { $0.isEmpty }
    }

    /// Every stored cookie, expired ones included, in no particular order.
    public var allCookies: [Cookie] {
        cookiesByIdentity.withLock { Array($0.values) }
    }

    /// Removes every cookie without an expiry date: the cookies that would not outlive the process anyway.
    /// (ASIHTTPRequest's `clearSession` removed every cookie of the session; that is ``removeAll()``.)
    public func removeSessionCookies() {
        cookiesByIdentity.withLock { $0 = $0.filter { $0.value.expires != nil } }
    }

    /// Removes every cookie.
    public func removeAll() {
        cookiesByIdentity.withLock { $0.removeAll() }
    }
}
