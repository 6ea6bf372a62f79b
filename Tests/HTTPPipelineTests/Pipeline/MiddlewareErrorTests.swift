import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

/// A middleware's own errors are reported as the middleware's, never as the transport's.
@Suite struct MiddlewareErrorTests {
    struct SigningFailure: Error {}

    /// Fails before calling the rest of the chain.
    struct FailingSigner: Middleware {
        func intercept(
            _ request: Request,
            context: RequestContext,
            next: @Sendable (Request, RequestContext) async throws -> Response
        ) async throws -> Response {
            throw SigningFailure()
        }
    }

    /// Passes everything through.
    struct PassThrough: Middleware {
        func intercept(
            _ request: Request,
            context: RequestContext,
            next: @Sendable (Request, RequestContext) async throws -> Response
        ) async throws -> Response {
            try await next(request, context)
        }
    }

    @Test func anErrorOfItsOwnIsMiddlewareFailedWithItsName() async throws {
        let transport = ScriptedTransport.ok
        let client = Client(transport: transport, middleware: [PassThrough(), FailingSigner()])
        let error = await #expect(throws: ClientError.self) { try await client.send(Request("http://a.example/")) }
        #expect(error?.code == .middlewareFailed)
        #expect(error?.stage == .middleware("FailingSigner"))
        #expect(error?.underlying is SigningFailure)
        #expect(transport.requests.isEmpty)
    }

    @Test func aClientErrorWithoutAStageGetsTheMiddlewaresStage() async throws {
        struct Refusing: Middleware {
            func intercept(
                _ request: Request,
                context: RequestContext,
                next: @Sendable (Request, RequestContext) async throws -> Response
            ) async throws -> Response {
                throw ClientError(.invalidConfiguration, message: "no signing key")
            }
        }
        let client = Client(transport: ScriptedTransport.ok, middleware: [Refusing()])
        let error = await #expect(throws: ClientError.self) { try await client.send(Request("http://a.example/")) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.stage == .middleware("Refusing"))
    }

    @Test func transportErrorsKeepTheTransportStageThroughMiddleware() async throws {
        let client = Client(transport: ScriptedTransport.failing(.connectFailed), middleware: [PassThrough()])
        let error = await #expect(throws: ClientError.self) { try await client.send(Request("http://a.example/")) }
        #expect(error?.code == .connectFailed)
        #expect(error?.stage == .transport)
    }

    @Test func cancellationPassesThroughUnwrapped() async throws {
        struct Cancelling: Middleware {
            func intercept(
                _ request: Request,
                context: RequestContext,
                next: @Sendable (Request, RequestContext) async throws -> Response
            ) async throws -> Response {
                throw CancellationError()
            }
        }
        let client = Client(transport: ScriptedTransport.ok, middleware: [Cancelling()])
        await #expect(throws: CancellationError.self) { try await client.send(Request("http://a.example/")) }
    }
}
