public import FoundationEssentials
public import HTTPCore
import Synchronization

/// A proxy resolver driven by a closure, which records the URLs it was asked about.
public final class ScriptedProxyResolver: ProxyResolver {
    private let handler: @Sendable (URL) async throws -> ProxyRoute
    private let asked = Mutex<[URL]>([])

    /// Creates a resolver that answers with `handler`.
    /// - Parameter handler: Returns the route for a URL.
    public init(_ handler: @escaping @Sendable (URL) async throws -> ProxyRoute) {
        self.handler = handler
    }

    /// A resolver that always answers `route`.
    /// - Parameter route: The route for every URL.
    /// - Returns: The resolver.
    public static func always(_ route: ProxyRoute) -> ScriptedProxyResolver {
        ScriptedProxyResolver { _ in route }
    }

    /// Records the URL and answers it.
    /// - Parameter url: The request URL.
    /// - Returns: The handler's route.
    /// - Throws: What the handler throws.
    public func route(for url: URL) async throws -> ProxyRoute {
        asked.withLock { $0.append(url) }
        return try await handler(url)
    }

    /// Every URL asked about so far, in order.
    public var urls: [URL] { asked.withLock { $0 } }
}
