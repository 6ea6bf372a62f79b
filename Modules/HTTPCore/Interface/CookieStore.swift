public import FoundationEssentials

/// Keeps cookies between requests (ASIHTTPRequest's shared cookie storage).
///
/// The pipeline parses `Set-Cookie`, applies RFC 6265's acceptance rules and hands the store cookies ready to
/// keep. A store only keeps them and answers lookups.
///
/// ## Implementation requirements
/// - Be safe to call from many tasks at once.
/// - ``store(_:receivedFrom:)`` replaces a stored cookie with the same ``Cookie/identity`` (keeping its
///   ``Cookie/created`` date) and removes it when the new one has already expired.
/// - ``cookies(for:)`` returns exactly the cookies for which ``Cookie/matches(_:at:)`` is true now, longer paths
///   first, then older cookies first (RFC 6265 §5.4).
///
/// ## Implement a custom cookie store
/// Keep cookies in a dictionary keyed by ``Cookie/identity`` behind a lock or in an actor, and filter with
/// ``Cookie/matches(_:at:)``; `Examples/CustomAdapters` shows a complete one.
public protocol CookieStore: PluginLifecycle {
    /// Returns the cookies to send with a request to `url`.
    /// - Parameter url: The request URL.
    /// - Returns: The matching cookies in sending order.
    /// - Throws: ``ClientError`` when the storage fails.
    func cookies(for url: URL) async throws -> [Cookie]
    /// Keeps cookies a response set.
    /// - Parameters:
    ///   - cookies: The parsed, accepted cookies.
    ///   - url: The URL of the response that set them.
    /// - Throws: ``ClientError`` when the storage fails.
    func store(_ cookies: [Cookie], receivedFrom url: URL) async throws
}
