import ArgumentParser
import FoundationEssentials
import HTTPCore

/// The flags that decide where connections go (the proxy flags are in ``ProxyFlags``).
struct ConnectionFlags: ParsableArguments {
    @Option(
        name: .customLong("resolve"),
        help: ArgumentHelp(
            "Connect to ADDR for HOST:PORT instead of resolving HOST (the URL and Host field stay as they are).",
            valueName: "host:port:addr"))
    var resolve: [String] = []

    @Option(
        name: .customLong("happy-eyeballs-timeout-ms"),
        help: ArgumentHelp(
            "Start the next address (IPv6 and IPv4 alternate, IPv6 first) after this many ms (default 250).",
            valueName: "ms"))
    var happyEyeballsTimeout: Int?

    /// The `--resolve` entries as ``POSIXTransport/Configuration/addressOverrides``.
    /// - Throws: `ValidationError` for an entry that is not `HOST:PORT:ADDR`.
    func addressOverrides() throws -> [String: String] {
        var overrides: [String: String] = [:]
        for entry in resolve {
            let parts = entry.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65_535).contains(port),
                !parts[2].isEmpty
            else { throw ValidationError("--resolve wants HOST:PORT:ADDR, not \(entry)") }
            var address = String(parts[2])
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            overrides["\(parts[0].lowercased()):\(port)"] = address
        }
        return overrides
    }
}
