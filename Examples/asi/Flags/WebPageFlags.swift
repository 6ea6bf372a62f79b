import ArgumentParser

/// `--webpage`: save a page and everything it needs for offline use (the WebPage plug-in, issue 29).
struct WebPageFlags: ParsableArguments {
    /// How the page is saved.
    enum Mode: String, ExpressibleByArgument {
        case local, data
    }

    @Option(
        name: .customLong("webpage"),
        help: ArgumentHelp(
            "Save the page with its images, stylesheets, scripts and frames: 'local' writes -o DIR/PAGE and the "
                + "resources under DIR, 'data' writes one file with data: URIs. Follows redirects.",
            valueName: "local|data"))
    var mode: Mode?

    @Option(
        name: .customLong("webpage-max-depth"),
        help: ArgumentHelp("How deep frames and stylesheets are followed (the page is 0; default 5).", valueName: "n"))
    var maxDepth: Int = 5

    @Option(
        name: .customLong("webpage-max-size"),
        help: ArgumentHelp("The most bytes of resources saved in all (default 64 MiB).", valueName: "bytes"))
    var maxSize: Int = 64 << 20

    @Flag(
        name: .customLong("webpage-same-host"),
        help: "Fetch only resources on the page's host and port.")
    var sameHost = false

    /// The usage errors of the flags, given the command line's URLs and `-o` files.
    func validate(urls: [String], outputs: [String]) throws {
        guard let mode else {
            if maxDepth != 5 || maxSize != 64 << 20 || sameHost {
                throw ValidationError("--webpage-max-depth, --webpage-max-size and --webpage-same-host need --webpage.")
            }
            return
        }
        if urls.count != 1 { throw ValidationError("--webpage saves one URL.") }
        if mode == .local && outputs.count != 1 { throw ValidationError("--webpage local needs -o DIR/PAGE.html.") }
        if maxDepth < 0 || maxSize < 0 { throw ValidationError("--webpage limits cannot be negative.") }
    }
}
