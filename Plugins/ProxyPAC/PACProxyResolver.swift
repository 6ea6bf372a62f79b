public import FoundationEssentials
public import HTTPCore
public import Logging
import Synchronization

/// A ``HTTPCore/ProxyResolver`` that asks a proxy auto-config (PAC) file, evaluated in an embedded, sandboxed
/// JavaScript engine (Duktape).
///
/// The script comes from a file, a URL (fetched directly through the injected ``PACScriptFetcher``: `200` only, at
/// most ``Configuration/maxScriptBytes``, UTF-8 or else Latin-1) or text; it is kept for
/// ``Configuration/scriptLifetime`` and then loaded again. Every `routes(for:)` calls
/// `FindProxyForURL(url, host)` (Microsoft's `FindProxyForURLEx` when the script defines it) and turns the answer
/// into ordered routes (``PACAnswer``).
///
/// A script that cannot be loaded, does not compile, throws, runs past ``Configuration/evaluationTimeLimit`` or
/// past ``Configuration/memoryLimit`` means `DIRECT`, with one warning in the log per script (as ASIHTTPRequest
/// proceeded without a proxy).
///
/// The sandbox: the script has no I/O but DNS lookups (with ``Configuration/dnsTimeout``, cached for
/// ``Configuration/dnsCacheLifetime``), its own heap with a memory cap, and a time limit per call. Each resolver
/// owns one engine on its own thread; evaluations for one resolver run one at a time.
///
/// ```swift
/// let pac = PACProxyResolver(source: .url(pacURL), fetcher: TransportPACFetcher(transport: POSIXTransport()))
/// let transport = POSIXTransport(configuration: .init(proxyResolver: pac))
/// ```
public final class PACProxyResolver: ProxyResolver {
    /// Where the script comes from.
    public let source: PACSource
    /// Limits and caches.
    public let configuration: Configuration
    private let loader: PACScriptLoader
    private let thread: PACEngineThread
    private let logger: Logger
    // Script generations already warned about, so that a failing script logs once.
    private let warned = Mutex<Set<Int>>([])

    /// Creates a resolver. Nothing is loaded until the first request.
    /// - Parameters:
    ///   - source: The PAC file's path, URL or text.
    ///   - fetcher: Downloads a PAC URL; needed only for `http`/`https` sources.
    ///   - configuration: Limits and caches.
    ///   - logger: Where failures (as warnings) and the script's `alert` calls (as info) go.
    public init(
        source: PACSource,
        fetcher: (any PACScriptFetcher)? = nil,
        configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "ProxyPAC")
    ) {
        self.source = source
        self.configuration = configuration
        self.logger = logger
        loader = PACScriptLoader(source: source, fetcher: fetcher, configuration: configuration)
        thread = PACEngineThread { PACWorker(configuration: configuration, logger: logger) }
    }

    deinit {
        thread.stop()
    }

    /// The routes the PAC file answers for `url`; `[.direct]` when it cannot answer.
    /// - Parameter url: The request URL.
    /// - Returns: One or more routes.
    /// - Throws: `CancellationError` only.
    public func routes(for url: URL) async throws -> [ProxyRoute] {
        try Task.checkCancellation()
        guard let host = url.host(percentEncoded: false) else { return [.direct] }
        do {
            return PACAnswer.routes(from: try await findProxy(url: url.absoluteString, host: host))
        } catch {
            try Task.checkCancellation()
            return [.direct]
        }
    }

    /// Evaluates `FindProxyForURL(url, host)` and returns exactly what it returned (`asi --pac-test`).
    /// - Parameters:
    ///   - url: The URL passed to the script.
    ///   - host: The host passed to the script.
    /// - Returns: The script's answer.
    /// - Throws: ``HTTPCore/ClientError``: the load's error, `.invalidConfiguration` for a script that does not
    ///   compile or throws, `.timedOut` past the time limit, or
    ///   `.storageFailed` past the memory cap. The failure is logged once per script as a warning.
    public func findProxy(url: String, host: String) async throws -> String {
        let (loaded, freshFailure) = await loader.script()
        let script: PACScript
        switch loaded {
        case .success(let value): script = value
        case .failure(let error):
            if freshFailure { warn("PAC file \(source) could not be loaded; going DIRECT", error: error) }
            throw error
        }
        let result = await thread.run { worker -> Result<String, PACEngine.Failure> in
            worker?.findProxy(script: script, url: url, host: host) ?? .failure(.script("resolver shut down"))
        }
        switch result {
        case .success(let answer): return answer
        case .failure(let failure):
            let error = Self.clientError(failure)
            if warned.withLock({ $0.insert(script.generation).inserted }) {
                warn("PAC file \(source) failed; going DIRECT", error: error)
            }
            throw error
        }
    }

    /// The host a PAC tester passes for a URL, as pacparser takes it: what follows the first `://` (with no `:`
    /// before it) up to the next `/` or `:`; empty when there is none. (``routes(for:)`` passes the URL's parsed
    /// host instead.)
    /// - Parameter url: The URL as text.
    /// - Returns: The host.
    public static func host(inURL url: String) -> String {
        let characters = Array(url)
        var index = 0
        while index < characters.count, characters[index] != ":" { index += 1 }
        guard index + 2 < characters.count, characters[index + 1] == "/", characters[index + 2] == "/" else {
            return ""
        }
        return String(characters[(index + 3)...].prefix { $0 != "/" && $0 != ":" })
    }

    /// Stops the engine's thread; later calls answer `DIRECT`.
    public func shutdown() async throws {
        thread.stop()
    }

    private func warn(_ message: String, error: ClientError) {
        logger.warning("\(message)", metadata: ["error": "\(error)"])
    }

    private static func clientError(_ failure: PACEngine.Failure) -> ClientError {
        switch failure {
        case .timedOut:
            ClientError(.timedOut, stage: .transport, message: "PAC script ran past its time limit")
        case .outOfMemory:
            ClientError(.storageFailed, stage: .transport, message: "PAC script ran out of memory")
        case .script(let message):
            ClientError(.invalidConfiguration, stage: .transport, message: "PAC script error: \(message)")
        }
    }
}
