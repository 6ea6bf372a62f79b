import HTTPCore
import Synchronization

/// The proxies that could not be reached lately, each until a deadline: later requests try the resolver's other
/// routes first and a parked proxy only after them (so when every route is parked, all are still tried, in the
/// resolver's order). A proxy leaves the list when its time is up or when it answers again.
///
/// A proxy is one kind, host and port, whatever the credential. Direct routes are never parked. Times are
/// ``NanoTime`` values passed in, so the rules are tested without waiting.
final class ProxyParking: Sendable {
    private struct Proxy: Hashable {
        var kind: ProxyRoute.Kind
        var host: String
        var port: Int

        init(_ route: ProxyRoute) {
            kind = route.kind
            host = route.host
            port = route.port
        }
    }

    private let duration: UInt64
    private let parked = Mutex<[Proxy: UInt64]>([:])

    /// Creates an empty list.
    /// - Parameter duration: How long a proxy stays parked (``NanoTime`` nanoseconds); 0 parks nothing.
    init(duration: UInt64) {
        self.duration = duration
    }

    /// Parks the route's proxy from `now` on; a direct route is ignored.
    func park(_ route: ProxyRoute, now: UInt64) {
        guard !route.isDirect, duration > 0 else { return }
        let (until, overflow) = now.addingReportingOverflow(duration)
        parked.withLock { $0[Proxy(route)] = overflow ? NanoTime.never : until }
    }

    /// Takes the route's proxy off the list (it answered).
    func release(_ route: ProxyRoute) {
        guard !route.isDirect else { return }
        parked.withLock { parked in
            if !parked.isEmpty { parked[Proxy(route)] = nil }
        }
    }

    /// Whether the route's proxy is parked at `now`.
    func isParked(_ route: ProxyRoute, now: UInt64) -> Bool {
        parked.withLock { ($0[Proxy(route)] ?? 0) > now }
    }

    /// The routes to try: those whose proxy is not parked, in order, then the parked ones, in order. Entries
    /// whose time is up are dropped on the way.
    /// - Parameters:
    ///   - routes: The resolver's routes.
    ///   - now: The current time.
    /// - Returns: The same routes, parked ones moved to the end.
    func ordered(_ routes: [ProxyRoute], now: UInt64) -> [ProxyRoute] {
        parked.withLock { parked -> [ProxyRoute] in
            guard !parked.isEmpty else { return routes }
            parked = parked.filter { $0.value > now }
            var ready: [ProxyRoute] = []
            var later: [ProxyRoute] = []
            for route in routes {
                if !route.isDirect && parked[Proxy(route)] != nil {
                    later.append(route)
                } else {
                    ready.append(route)
                }
            }
            return ready + later
        }
    }
}
