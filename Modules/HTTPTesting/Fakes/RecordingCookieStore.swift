public import FoundationEssentials
public import HTTPCore
import Synchronization

/// A cookie store that records every call and passes it to a real store (an in-memory jar by default).
///
/// Its ``isKnownEmpty`` stays `false` (the protocol's default), so the pipeline asks it on every request and every
/// lookup is recorded.
public final class RecordingCookieStore: CookieStore {
    /// One recorded call.
    public enum Call: Sendable, Hashable {
        /// A lookup for the URL.
        case lookup(URL)
        /// Cookies stored from the URL, by name.
        case store([String], from: URL)
        /// Session cookies removed.
        case removeSessionCookies
        /// Every cookie removed.
        case removeAll
    }

    private let base: any CookieStore
    private let recorded = Mutex<[Call]>([])

    /// Creates the store.
    /// - Parameter base: The store that keeps the cookies.
    public init(base: any CookieStore = MemoryCookieJar()) {
        self.base = base
    }

    /// Records and forwards the lookup.
    /// - Parameter url: The request URL.
    /// - Returns: The base store's cookies.
    /// - Throws: What the base store throws.
    public func cookies(for url: URL) async throws -> [Cookie] {
        recorded.withLock { $0.append(.lookup(url)) }
        return try await base.cookies(for: url)
    }

    /// Records and forwards the cookies.
    /// - Parameters:
    ///   - cookies: The cookies.
    ///   - url: The URL that set them.
    /// - Throws: What the base store throws.
    public func store(_ cookies: [Cookie], receivedFrom url: URL) async throws {
        recorded.withLock { $0.append(.store(cookies.map(\.name), from: url)) }
        try await base.store(cookies, receivedFrom: url)
    }

    /// Records and forwards the removal.
    /// - Throws: What the base store throws.
    public func removeSessionCookies() async throws {
        recorded.withLock { $0.append(.removeSessionCookies) }
        try await base.removeSessionCookies()
    }

    /// Records and forwards the removal.
    /// - Throws: What the base store throws.
    public func removeAll() async throws {
        recorded.withLock { $0.append(.removeAll) }
        try await base.removeAll()
    }

    /// Every call so far, in order.
    public var calls: [Call] { recorded.withLock { $0 } }
}
