import ArgumentParser

/// The flags that govern how a transfer runs: redirects, time limits, retries and compression.
struct TransferFlags: ParsableArguments {
    @Flag(
        name: [.customShort("L"), .customLong("location")],
        help: "Follow redirects (without it a 3xx is the answer, as in curl; ASIKit itself follows by default).")
    var location = false

    @Option(name: .customLong("max-redirs"), help: "The most redirects -L follows.")
    var maxRedirects = 50

    @Flag(name: .customLong("post301"), help: "Keep POST after a 301 (RFC 2616 mode; also applies to 302).")
    var post301 = false

    @Flag(name: .customLong("post302"), help: "Keep POST after a 302 (RFC 2616 mode; also applies to 301).")
    var post302 = false

    @Option(
        name: [.customShort("m"), .customLong("max-time")],
        help: ArgumentHelp(
            "The most seconds one URL's transfer may take in total, retries included.", valueName: "seconds"))
    var maxTime: Double?

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp("The most seconds the TCP connect and TLS handshake may take.", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(
        name: [.customShort("y"), .customLong("speed-time")],
        help: ArgumentHelp(
            "Give up after this many seconds without a byte sent or received (ASIKit's timeout; default 10).",
            valueName: "seconds"))
    var speedTime: Double?

    @Option(
        name: [.customShort("Y"), .customLong("speed-limit")],
        help: ArgumentHelp(
            "Give up when slower than this many bytes per second for --speed-time seconds (default 30), as curl.",
            valueName: "bytes"))
    var speedLimit: Int?

    @Option(
        name: .customLong("retry"),
        help: ArgumentHelp(
            "Retry up to N times after a transient error (a timeout, 408, 429, 500, 502, 503, 504), as curl does.",
            valueName: "n"))
    var retry = 0

    @Option(
        name: .customLong("retry-delay"),
        help: ArgumentHelp("Wait this long between retries instead of 1 s doubling.", valueName: "seconds"))
    var retryDelay: Double?

    @Option(
        name: .customLong("retry-max-time"),
        help: ArgumentHelp("Start no retry after this many seconds from the first attempt.", valueName: "seconds"))
    var retryMaxTime: Double?

    @Flag(name: .customLong("retry-all-errors"), help: "Retry on every error (and HTTP >= 400 with -f).")
    var retryAllErrors = false

    @Flag(name: .customLong("retry-connrefused"), help: "Retry when the connection is refused, too.")
    var retryConnectionRefused = false

    @Flag(
        inversion: .prefixedNo,
        help: "Ask for a compressed response and inflate it (on by default; --no-compressed turns it off).")
    var compressed = true
}
