public import HTTPPipeline
public import ServiceLifecycle

/// A ``HTTPPipeline/Client`` as a swift-service-lifecycle `Service`: run it in the app's `ServiceGroup` beside its
/// other services, and a graceful shutdown (SIGTERM, or `ServiceGroup.triggerGracefulShutdown()`) ends the
/// client's background work and then shuts the client down (its transport closes its connections, its stores flush).
///
/// ```swift
/// let client = Client(transport: .posix())
/// let group = ServiceGroup(
///     services: [ClientService(client), server],
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger)
/// try await group.run()
/// ```
///
/// The client still answers requests while it runs; give it to the services that send them. Hummingbird's
/// `Application` and `PersistDriver` join a `ServiceGroup` the same way.
public struct ClientService: Service {
    /// The client this service runs and shuts down.
    public let client: Client

    /// A service for `client`.
    /// - Parameter client: The client to run in the group; the service shuts it down when it ends.
    public init(_ client: Client) {
        self.client = client
    }

    /// Runs the client's plug-ins' background work (``HTTPPipeline/Client/run()``) until the group shuts down
    /// gracefully or the task is cancelled, then shuts the client down.
    /// - Throws: The first error a plug-in's background work or its shutdown throws.
    public func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { [client] in try await client.run() }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }
}
