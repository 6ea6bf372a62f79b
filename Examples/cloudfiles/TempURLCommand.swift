import ArgumentParser
import CloudFiles
import FoundationEssentials

/// `cloudfiles tempurl METHOD SECONDS PATH KEY`: a temporary URL, signed locally (no request): the HMAC
/// (SHA-256 by default) of `METHOD\nEXPIRES\nPATH`, expiring SECONDS from now (or at SECONDS with `--absolute`),
/// printed as `PATH?temp_url_sig=…&temp_url_expires=…` exactly as `swift tempurl` prints it.
struct TempURLCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tempurl", abstract: "Generates a temporary URL for a Swift object.")

    @Flag(name: .customLong("absolute"), help: "SECONDS is the Unix time the URL expires at.")
    var absolute = false

    @Flag(name: .customLong("prefix-based"), help: "A prefix-based temporary URL.")
    var prefixBased = false

    @Option(name: .customLong("ip-range"), help: "Restricts the URL to an address or range.")
    var ipRange: String?

    @Option(name: .customLong("digest"), help: "sha1 or sha256 (default).")
    var digest = "sha256"

    @Argument(help: "The method (GET, PUT, HEAD, POST, DELETE).")
    var method: String

    @Argument(help: "Seconds the URL is valid for (or, with --absolute, the Unix time it expires at).")
    var seconds: String

    @Argument(help: "The object's path, /v1/AUTH_account/container/object, or a URL ending with it.")
    var path: String

    @Argument(help: "The Temp-URL-Key.")
    var key: String

    func run() async throws {
        let output = Output()
        let method = self.method.uppercased()
        guard let time = Int64(seconds), time >= 0 else {
            throw CommandFailure("time must either be an integer or a ISO 8601 date")
        }
        let digest: CloudFilesTempURL.Digest
        switch self.digest {
        case "sha1": digest = .sha1
        case "sha256": digest = .sha256
        default: throw CommandFailure("digest must be one of sha1, or sha256")
        }
        var origin = ""
        var objectPath = path
        if let url = URL(string: path), let scheme = url.scheme, let host = url.host() {
            origin = "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
            objectPath = url.path(percentEncoded: false)
        }
        let parts = objectPath.split(separator: "/", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1..<(prefixBased ? 4 : 5)].allSatisfy({ !$0.isEmpty }) else {
            throw CommandFailure(
                prefixBased
                    ? "path must at least contain /v1/a/c/" : "path must be full path to an object e.g. /v1/a/c/o")
        }
        if !["GET", "PUT", "HEAD", "POST", "DELETE"].contains(method) {
            output.line("WARNING: Non default HTTP method \(method) for tempurl specified, possibly an error")
        }
        let expires = absolute ? time : Int64(Date().timeIntervalSince1970) + time
        let signature = CloudFilesTempURL.signature(
            method: method, path: objectPath, expires: expires, key: key, digest: digest, prefix: prefixBased,
            ipRange: ipRange)
        var text = "\(origin)\(objectPath)?temp_url_sig=\(signature)&temp_url_expires=\(expires)"
        if let ipRange { text += "&temp_url_ip_range=\(ipRange)" }
        if prefixBased { text += "&temp_url_prefix=\(parts[4])" }
        output.line(text)
        output.flush()
    }
}
