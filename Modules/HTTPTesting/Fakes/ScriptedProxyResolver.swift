public import FoundationEssentials
public import HTTPCore
import Synchronization

/// A proxy resolver driven by a closure, which records the URLs it was asked about.
public final class ScriptedProxyResolver: ProxyResolver {
    private let handler: @Sendable (URL) async throws -> [ProxyRoute]
    private let asked = Mutex<[URL]>([])

    /// Creates a resolver that answers with `handler`.
    /// - Parameter handler: Returns the routes for a URL, in order.
    public init(_ handler: @escaping @Sendable (URL) async throws -> [ProxyRoute]) {
        self.handler = handler
    }

    /// A resolver that always answers `routes`.
    /// - Parameter routes: The routes for every URL, in order.
    /// - Returns: The resolver.
    public static func always(_ routes: ProxyRoute...) -> ScriptedProxyResolver {
        ScriptedProxyResolver { _ in routes }
    }

    /// Records the URL and answers it.
    /// - Parameter url: The request URL.
    /// - Returns: The handler's routes.
    /// - Throws: What the handler throws.
    public func routes(for url: URL) async throws -> [ProxyRoute] {
        asked.withLock { $0.append(url) }
        return try await handler(url)
    }

    /// Every URL asked about so far, in order.
    public var urls: [URL] { asked.withLock { $0 } }
}
