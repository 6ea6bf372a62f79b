import ASIKit
import ASIKitObservability
import OpenAPIASIKit

/// The composition root of issue 20, as written there: a client with the observability middleware, and the
/// OpenAPI transport on it. It has a file of its own because the generated client is called `Client` too; this
/// file does not import it.
func makeComposition() -> (client: Client, transport: ASIKitTransport) {
    let client = Client(transport: POSIXTransport(), middleware: [ObservabilityMiddleware()])
    let transport = ASIKitTransport(client: client)
    return (client, transport)
}
