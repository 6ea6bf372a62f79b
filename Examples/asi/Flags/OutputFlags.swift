import ArgumentParser

/// The flags that say where the response goes and what is reported.
struct OutputFlags: ParsableArguments {
    @Option(
        name: [.customShort("o"), .customLong("output")],
        help: ArgumentHelp(
            "Write the body to FILE (\"-\" for stdout); repeat it for each URL, in order.", valueName: "file"))
    var outputs: [String] = []

    @Flag(
        name: [.customShort("O"), .customLong("remote-name")],
        help: "Name each output file after its URL's last path segment.")
    var remoteName = false

    @Option(
        name: [.customShort("C"), .customLong("continue-at")],
        help: ArgumentHelp(
            "\"-\": resume a partial output file where it ends; with -T, a byte offset to upload from.",
            valueName: "-|offset"))
    var continueAt: String?

    @Flag(
        name: [.customShort("i"), .customLong("include")], help: "Print the response's header fields before the body.")
    var include = false

    @Flag(name: [.customShort("s"), .customLong("silent")], help: "No progress meter and no error messages.")
    var silent = false

    @Flag(name: [.customShort("S"), .customLong("show-error")], help: "With -s, still print error messages.")
    var showError = false

    @Flag(
        name: [.customShort("#"), .customLong("progress-bar")],
        help: "Draw progress bars on stderr instead of curl's progress meter.")
    var progressBar = false

    @Flag(
        name: [.customShort("v"), .customLong("verbose")],
        help: "Print every hop's heads, the library's debug log (-vv: trace) and the average bandwidth on stderr.")
    var verbosity: Int

    @Flag(
        name: [.customShort("f"), .customLong("fail")], help: "Exit 22 without output on an HTTP status of 400 or more."
    )
    var fail = false

    @Option(
        name: [.customShort("w"), .customLong("write-out")],
        help: ArgumentHelp(
            "Print this after each transfer, e.g. '%{http_code}\\n' (@FILE reads it).", valueName: "format"))
    var writeOut: String?

    @Flag(
        name: [.customShort("Z"), .customLong("parallel")],
        help: "Run the URLs at the same time through a request queue.")
    var parallel = false

    @Option(
        name: .customLong("parallel-max"), help: ArgumentHelp("The most transfers -Z runs at once.", valueName: "n"))
    var parallelMax = 50

    @Flag(
        name: .customLong("parallel-immediate"),
        help: "With -Z, open a connection for each transfer at once instead of waiting to share one (HTTP/2).")
    var parallelImmediate = false
}
