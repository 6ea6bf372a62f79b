import HTTPCore
import Logging

extension TransportCore {
    /// Sends one request over the routes the resolver answers, in order.
    ///
    /// A route whose connection cannot be opened (the proxy's name does not resolve, it refuses or cannot be
    /// reached, or the connect times out; a `502` to `CONNECT`; a SOCKS proxy that could not reach the origin) is
    /// skipped, and the next one is tried; nothing of the request was sent then. Such a proxy is parked
    /// (``ProxyParking``): later requests try it after the other routes. Any other error or a response of any
    /// status (a 407 included) ends the request there: going on would bypass a proxy the user configured. When
    /// every route fails, the last route's error is thrown.
    /// - Parameters:
    ///   - request: The request.
    ///   - resolver: The configured proxy resolver.
    ///   - context: The request's context; its ``RequestContext/proxyAuthorization`` is sent to the proxy it is for.
    /// - Returns: The response, with ``Response/route`` set to the route it came through.
    /// - Throws: ``ClientError`` or `CancellationError`.
    func sendRouted(_ request: Request, resolver: any ProxyResolver, context: RequestContext) async throws -> Response {
        let target = try targets.target(for: request.url)
        // The resolver never sees the URL's user:password or fragment: a PAC script or its log must not get a
        // credential.
        let asked = request.url.removingUserInfo(droppingFragment: true) ?? request.url
        let routes = try await resolver.routes(for: asked)
        guard !routes.isEmpty else {
            throw ClientError(.invalidConfiguration, stage: .transport,
                              message: "The proxy resolver returned no route (it must return at least one)")
        }
        var lastError: ClientError?
        for route in parking.ordered(routes, now: NanoTime.now()) {
            try Task.checkCancellation()
            let plan = try ExchangePlan(request: request, target: target, route: route,
                                        proxyAuthorization: context.proxyAuthorization,
                                        idleTimeout: configuration.idleTimeout,
                                        bindsConnection: context.preferredConnectionID != nil)
            do {
                let response = try await send(plan, context: context, failsOver: true)
                parking.release(route)
                return response
            } catch let failure as RouteUnreachable {
                context.logger.debug("Route unreachable; parking it and trying the next one",
                                     metadata: ["route": "\(route)", "error": "\(failure.error)"])
                parking.park(route, now: NanoTime.now())
                lastError = failure.error
            } catch {
                parking.release(route)
                throw error
            }
        }
        guard let lastError else { preconditionFailure("every route either returns or fails over") }
        throw lastError
    }
}

/// A connection over one route could not be opened and no byte of the request was sent, so the next route may
/// be tried. Never leaves ``TransportCore``.
struct RouteUnreachable: Error {
    /// Why the connection could not be opened.
    let error: ClientError

    /// Whether `error`, thrown while opening a connection, allows trying the next route: name resolution,
    /// connect failures, connect timeouts, and a proxy connection that broke during the proxy's handshake
    /// (reset while a `CONNECT` or SOCKS request was sent or answered). TLS and certificate failures do not.
    /// - Parameter error: The error from opening the connection.
    /// - Returns: `true` when the next route may be tried.
    static func isUnreachable(_ error: ClientError) -> Bool {
        error.code == .connectFailed || error.code == .nameResolutionFailed || error.code == .timedOut
            || error.code == .sendFailed || error.code == .receiveFailed
    }
}
