import CDuktape
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// What a PAC script's native functions reach: DNS with a time limit and a short cache, the host's own address,
/// and the log for `alert`. Confined to one ``PACEngineThread``, like the engine that calls it; it never calls
/// Duktape.
final class PACEngineHost {
    private struct CachedLookup {
        var addresses: [String]?
        var expires: ContinuousClock.Instant
    }

    private let dnsTimeout: Duration
    private let dnsCacheLifetime: Duration
    private let fixedAddress: String?
    private let logger: Logger
    private var cache: [String: CachedLookup] = [:]
    private var callDeadline = ContinuousClock.now

    /// Creates the host side of an engine.
    /// - Parameters:
    ///   - configuration: DNS time limit and cache lifetime, and a fixed own address, if any.
    ///   - logger: Where `alert` writes.
    init(configuration: PACProxyResolver.Configuration, logger: Logger) {
        dnsTimeout = configuration.dnsTimeout
        dnsCacheLifetime = configuration.dnsCacheLifetime
        fixedAddress = configuration.myIPAddress
        self.logger = logger
    }

    /// Starts the time budget of one engine call; DNS lookups never wait past it.
    /// - Parameter timeLimit: The call's limit in milliseconds.
    func beginCall(timeLimit: UInt32) {
        callDeadline = .now + .milliseconds(Int64(timeLimit))
    }

    /// The addresses of `name`, from the cache or a lookup limited by the DNS timeout and the call's budget.
    /// - Parameter name: A host name or address literal.
    /// - Returns: The addresses in the resolver's order, or `nil` when the name does not resolve in time.
    func addresses(of name: String) -> [String]? {
        let now = ContinuousClock.now
        if let cached = cache[name], cached.expires > now { return cached.addresses }
        let budget = min(dnsTimeout, callDeadline - now)
        guard budget > .zero else { return nil }
        var buffer = [CChar](repeating: 0, count: 4096)
        let found = asi_pac_lookup(name, UInt32(clamping: budget.milliseconds), &buffer, buffer.count) == 0
        let addresses = found
            ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.split(separator: ";").map(String.init)
            : nil
        if cache.count > 1024 { cache.removeAll() }
        cache[name] = CachedLookup(addresses: addresses, expires: .now + dnsCacheLifetime)
        return addresses
    }

    /// Answers `dnsResolve` (`all` false: the first IPv4 address, or "" when there is none) and `dnsResolveEx`
    /// (`all` true: every address).
    /// - Parameters:
    ///   - name: The name to resolve.
    ///   - all: Whether every address is wanted.
    ///   - out: The answer's buffer.
    ///   - capacity: The buffer's size.
    /// - Returns: 0 when the name resolved, -1 when not.
    func resolve(_ name: String, all: Bool, into out: UnsafeMutablePointer<CChar>, capacity: Int) -> Int32 {
        guard let addresses = addresses(of: name) else { return -1 }
        return write(answer(addresses, all: all), into: out, capacity: capacity)
    }

    /// Answers `myIpAddress` and `myIpAddressEx`: the configured address, or the host name's addresses.
    /// - Parameters:
    ///   - all: Whether every address is wanted.
    ///   - out: The answer's buffer.
    ///   - capacity: The buffer's size.
    /// - Returns: 0 with an answer, -1 when the host name does not resolve (the script then sees `127.0.0.1`).
    func myAddress(all: Bool, into out: UnsafeMutablePointer<CChar>, capacity: Int) -> Int32 {
        if let fixedAddress { return write(fixedAddress, into: out, capacity: capacity) }
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return -1 }
        let hostName = name.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard let addresses = addresses(of: hostName) else { return -1 }
        let text = answer(addresses, all: all)
        return text.isEmpty ? -1 : write(text, into: out, capacity: capacity)
    }

    /// Writes `alert(message)` to the log.
    /// - Parameter message: The script's message.
    func alert(_ message: String) {
        logger.info("PAC alert", metadata: ["message": "\(message)"])
    }

    private func answer(_ addresses: [String], all: Bool) -> String {
        all ? addresses.joined(separator: ";") : addresses.first { !$0.contains(":") } ?? ""
    }

    private func write(_ text: String, into out: UnsafeMutablePointer<CChar>, capacity: Int) -> Int32 {
        var bytes = Array(text.utf8.prefix(capacity - 1))
        bytes.append(0)
        bytes.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { out.update(from: $0.baseAddress!, count: $0.count) }
        }
        return 0
    }
}
