import ArgumentParser
import FoundationEssentials
import HTTPCore
import Logging
import ProxyPAC
import SocketTransport

/// `--pac` and `--pac-test`: proxy auto-config (not in curl).
struct PACFlags: ParsableArguments {
    @Option(
        name: .customLong("pac"),
        help: ArgumentHelp("Route every request by this PAC file (a path or an http(s) URL, fetched directly).",
                           valueName: "file|url"))
    var source: String?

    @Option(
        name: .customLong("pac-test"),
        help: ArgumentHelp("Print what the --pac file's FindProxyForURL returns for this URL, and exit.",
                           valueName: "url"))
    var testURL: String?

    /// The `--pac` resolver, or `nil` without `--pac`.
    /// - Parameter logger: Where the resolver's warnings go.
    /// - Returns: The resolver.
    func resolver(logger: Logger) -> PACProxyResolver? {
        guard let source else { return nil }
        return PACProxyResolver(
            source: .parse(source), fetcher: TransportPACFetcher(transport: POSIXTransport()), logger: logger)
    }

    /// `--pac-test`: prints the raw answer, or `DIRECT` (and the warning on stderr) when the PAC file fails.
    /// - Throws: `ValidationError` without `--pac`.
    func runTest() async throws {
        guard let testURL else { return }
        var logger = Logger(label: "asi") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .warning
        guard let resolver = resolver(logger: logger) else { throw ValidationError("--pac-test needs --pac.") }
        let host = PACProxyResolver.host(inURL: testURL)
        let answer = (try? await resolver.findProxy(url: testURL, host: host)) ?? "DIRECT"
        try Output.writeStandardOutput(answer + "\n")
        try await resolver.shutdown()
    }
}
