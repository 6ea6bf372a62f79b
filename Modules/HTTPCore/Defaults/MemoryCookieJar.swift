public import FoundationEssentials
import Synchronization

/// The default cookie store: cookies kept in memory for the life of the client (ASIHTTPRequest's shared
/// cookie storage and `sessionCookies`).
///
/// A ``CookieStorage`` behind a lock: replacement, expiry, order and limits are the storage model's.
public final class MemoryCookieJar: CookieStore {
    private let storage: Mutex<CookieStorage>

    /// Creates an empty jar.
    /// - Parameter limits: The size and count limits; browsers' by default.
    public init(limits: CookieStorage.Limits = .standard) {
        storage = Mutex(CookieStorage(limits: limits))
    }

    /// Returns the unexpired cookies that match `url`, longer paths first, then older first.
    /// - Parameter url: The request URL.
    /// - Returns: The cookies to send.
    public func cookies(for url: URL) async -> [Cookie] {
        storage.withLock { storage in
            storage.isEmpty ? [] : storage.cookies(for: url, at: Date())  // empty: no clock read
        }
    }

    /// Stores cookies, replacing same-identity ones (keeping their creation) and removing expired ones.
    /// - Parameters:
    ///   - cookies: The cookies.
    ///   - url: The URL that set them.
    public func store(_ cookies: [Cookie], receivedFrom url: URL) async {
        let now = Date()
        storage.withLock { $0.store(cookies, receivedFrom: url, at: now) }
    }

    /// Adds cookies read from elsewhere (a cookie file, a saved session), with no URL to check them against;
    /// replacement, expiry and limits apply as for ``store(_:receivedFrom:)``.
    /// - Parameter cookies: The cookies, in creation order.
    public func restore(_ cookies: [Cookie]) {
        let now = Date()
        storage.withLock { $0.restore(cookies, at: now) }
    }

    /// Whether the jar holds no cookie, expired ones included; the pipeline then skips the lookup.
    public var isKnownEmpty: Bool {
        storage.withLock { $0.isEmpty }
    }

    /// Every stored cookie, expired ones included, in creation order.
    public var allCookies: [Cookie] {
        storage.withLock { $0.allCookies }
    }

    /// Removes every cookie without an expiry date: the cookies that would not outlive the process anyway.
    /// (ASIHTTPRequest's `clearSession` removed every cookie of the session; that is ``removeAll()``.)
    public func removeSessionCookies() {
        storage.withLock { _ = $0.removeSessionCookies() }
    }

    /// Removes every cookie.
    public func removeAll() {
        storage.withLock { _ = $0.removeAll() }
    }
}
