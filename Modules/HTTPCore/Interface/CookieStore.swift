public import FoundationEssentials

/// Keeps cookies between requests (ASIHTTPRequest's shared cookie storage).
///
/// The pipeline parses `Set-Cookie`, applies RFC 6265's acceptance rules and hands the store cookies ready to
/// keep. A store only keeps them and answers lookups; the storage model itself (replacement, expiry, order,
/// limits) is ``CookieStorage``, which every store wraps.
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once.
/// - Keep the cookies in a ``CookieStorage`` and pass the current time to it, so that:
///   ``store(_:receivedFrom:)`` replaces a stored cookie with the same ``Cookie/identity`` (keeping its creation),
///   removes it when the new one has already expired, refuses oversized cookies and evicts by the
///   ``CookieStorage/Limits``; ``cookies(for:)`` returns exactly the cookies for which ``Cookie/matches(_:at:)`` is
///   true now, longer paths first, then older cookies first (RFC 6265 §5.4), cookies of one response in the order
///   they were set.
/// - ``removeSessionCookies()`` removes the cookies without an expiry date; ``removeAll()`` removes every cookie.
/// - ``isKnownEmpty`` is `true` only when the store certainly holds no cookie; the pipeline then skips the lookup.
///   Answer it without I/O (a flag or a lock), or leave the default `false`.
/// - A store that persists cookies loads them with ``CookieStorage/restore(_:at:)`` and writes
///   ``CookieStorage/allCookies`` in ``PluginLifecycle/shutdown()`` (or in ``PluginLifecycle/run()`` when
///   ``CookieStorage/revision`` has moved). Errors are ``ClientError`` with ``ClientError/Code/storageFailed``.
///
/// ## Implement a custom cookie store
/// ```swift
/// final class MyCookieStore: CookieStore {
///     private let storage = Mutex(CookieStorage())
///     func cookies(for url: URL) -> [Cookie] {
///         storage.withLock { $0.isEmpty ? [] : $0.cookies(for: url, at: Date()) }
///     }
///     func store(_ cookies: [Cookie], receivedFrom url: URL) {
///         let now = Date()
///         storage.withLock { $0.store(cookies, receivedFrom: url, at: now) }
///     }
///     func removeSessionCookies() { storage.withLock { _ = $0.removeSessionCookies() } }
///     func removeAll() { storage.withLock { _ = $0.removeAll() } }
///     var isKnownEmpty: Bool { storage.withLock { $0.isEmpty } }
/// }
/// ```
/// `Examples/CustomAdapters` shows a complete one, and `CookieStoreConformance` in `HTTPTesting` checks a store.
public protocol CookieStore: PluginLifecycle {
    /// Returns the cookies to send with a request to `url`.
    /// - Parameter url: The request URL.
    /// - Returns: The matching cookies in sending order.
    /// - Throws: ``ClientError`` when the storage fails.
    func cookies(for url: URL) async throws -> [Cookie]

    /// Keeps cookies a response set.
    /// - Parameters:
    ///   - cookies: The parsed, accepted cookies, in the order the response set them.
    ///   - url: The URL of the response that set them.
    /// - Throws: ``ClientError`` when the storage fails.
    func store(_ cookies: [Cookie], receivedFrom url: URL) async throws

    /// Removes every cookie without an expiry date: the ones that end with the session.
    /// - Throws: ``ClientError`` when the storage fails.
    func removeSessionCookies() async throws

    /// Removes every cookie (ASIHTTPRequest's `clearSession` for cookies).
    /// - Throws: ``ClientError`` when the storage fails.
    func removeAll() async throws

    /// Whether the store certainly holds no cookie, so the pipeline may skip ``cookies(for:)``.
    ///
    /// `false` means "may hold cookies"; it is always correct. Answer without I/O.
    var isKnownEmpty: Bool { get }
}

extension CookieStore {
    /// `false`: the store may hold cookies, and the pipeline asks on every request.
    public var isKnownEmpty: Bool { false }
}
