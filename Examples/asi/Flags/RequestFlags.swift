import ArgumentParser
import HTTP2
import HTTPCore

/// The flags that shape what is sent: method, header fields, body, credentials and protocol details.
struct RequestFlags: ParsableArguments {
    @Option(
        name: [.customShort("X"), .customLong("request")],
        help: "The request method, e.g. PUT or DELETE; sent on every redirect hop too.")
    var method: String?

    @Option(
        name: [.customShort("H"), .customLong("header")],
        help: ArgumentHelp("A header field \"Name: value\"; \"Name:\" sends none.", valueName: "field"))
    var headers: [String] = []

    @Option(
        name: [.customShort("d"), .customLong("data")],
        help: ArgumentHelp(
            "POST data, url-encoded form by default; @FILE reads a file without its line breaks. Repeats join with &.",
            valueName: "data"))
    var data: [String] = []

    @Option(
        name: .customLong("data-binary"),
        help: ArgumentHelp("POST data sent as is; @FILE streams a file from disk.", valueName: "data"))
    var dataBinary: [String] = []

    @Option(
        name: [.customShort("F"), .customLong("form")],
        help: ArgumentHelp(
            "A multipart form part: name=value, name=@FILE[;type=TYPE][;filename=NAME], or name=<FILE "
                + "(value from a file).",
            valueName: "part"))
    var form: [String] = []

    @Option(
        name: [.customShort("T"), .customLong("upload-file")],
        help: ArgumentHelp(
            "PUT this file, streamed from disk (a URL ending in / gets its name); '-' reads standard input, sent "
                + "chunked.", valueName: "file"))
    var uploadFile: String?

    @Flag(name: [.customShort("I"), .customLong("head")], help: "Send HEAD and print the response's header fields.")
    var head = false

    @Option(name: [.customShort("A"), .customLong("user-agent")], help: "The User-Agent to send.")
    var userAgent: String?

    @Option(
        name: [.customShort("u"), .customLong("user")],
        help: ArgumentHelp("Basic credentials user:password (sent up front, as curl does).", valueName: "user:password")
    )
    var user: String?

    @Flag(name: .customLong("anyauth"), help: "Send -u credentials only when the server asks (the 401 challenge loop).")
    var anyAuth = false

    @Flag(
        name: .customLong("compress-request"), help: "Send the request body gzip-compressed (Content-Encoding: gzip).")
    var compressRequest = false

    @Flag(name: .customLong("http1.0"), help: "Use HTTP/1.0.")
    var http10 = false

    @Flag(name: .customLong("http1.1"), help: "Use HTTP/1.1 only (TLS offers no h2 by ALPN).")
    var http11 = false

    @Flag(name: .customLong("http2"), help: "Use HTTP/2 over https when the server agrees (the default, as curl's).")
    var http2 = false

    @Flag(name: .customLong("http2-prior-knowledge"), help: "Use HTTP/2 without negotiation, also for http:// URLs.")
    var http2PriorKnowledge = false

    /// The multiplexed protocols the transport offers: HTTP/2 over https by ALPN unless `--http1.1` or `--http1.0`
    /// asks for HTTP/1 (curl 7.88's default), and on cleartext too with `--http2-prior-knowledge`.
    var protocols: [any MultiplexedProtocol] {
        if http2PriorKnowledge { return [.http2(.init(speaksCleartextWithPriorKnowledge: true))] }
        if (http11 || http10) && !http2 { return [] }
        return [.http2()]
    }

    @Flag(
        name: .customLong("no-keepalive"),
        help: "Close each connection after its request (no HTTP persistent connections; see README).")
    var noKeepAlive = false
}
