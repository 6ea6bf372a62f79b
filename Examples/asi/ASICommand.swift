import ArgumentParser
import HTTPCore
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#endif

/// `asi`: a curl-like command-line client built on ASIKit's public API.
@main
struct ASICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asi",
        abstract: "Transfer URLs with ASIKit, using curl's flag names and meanings.",
        discussion: """
            Differences from curl (details in Examples/asi/README.md):
            - Redirects are followed only with -L, as in curl.
              (ASIKit's own default is to follow them.)
            - -m limits the total time of one URL's transfer, as in curl.
              ASIKit's own timeout is an inactivity timeout: -y/--speed-time
              (default 10 s). --retry retries transient errors as curl's does.
            - --compressed is on by default; --no-compressed turns it off.
            - --no-keepalive closes each connection after its request.
            - Cookies are kept only with -b or -c.
            - --limit-rate holds every second to the rate (curl averages);
              --max-bandwidth (not in curl) is one budget for all transfers.
            - On a terminal, a 401/407 without credentials asks for them.

            Exit codes (as curl's): 2 usage, 3 malformed URL, 6 cannot resolve host,
            7 cannot connect, 8 bad server reply, 22 HTTP error with --fail,
            23 write error, 26 read error, 28 timeout, 35 TLS handshake failed,
            42 cancelled, 43 internal error, 47 too many redirects, 58 bad local
            certificate, key or CA file, 60 untrusted server certificate,
            61 bad content encoding, 67 login denied.
            """)

    @Argument(help: "The URLs to fetch.")
    var urls: [String] = []

    // `--url` and `-K/--config` are read by ArgumentSplitter before the parser (a `--url` joins the positional
    // URLs in order; a config file's lines stand in for `-K FILE`); they are declared here so that `--help` lists
    // them. (Here rather than in an option group of their own: each group type costs the parser's reflection at
    // every start.)
    @Option(
        name: .customLong("url"),
        help: ArgumentHelp("A URL to fetch, as if given on its own (repeatable).", valueName: "url"))
    var urlOptions: [String] = []

    @Option(
        name: [.customShort("K"), .customLong("config")],
        help: ArgumentHelp(
            "Read options and URLs from this file in curl's config syntax (url = ..., output = ..., flags; "
                + "- reads standard input).", valueName: "file"))
    var configFiles: [String] = []

    @Flag(
        name: [.customShort("V"), .customLong("version")],
        help: "Print the version, the libraries and the features of this build, and exit (with or without URLs).")
    var showsVersion = false

    @OptionGroup(title: "Request") var request: RequestFlags
    @OptionGroup(title: "Authentication") var auth: AuthFlags
    @OptionGroup(title: "Cookies") var cookie: CookieFlags
    @OptionGroup(title: "Connection") var connection: ConnectionFlags
    @OptionGroup(title: "Proxy") var proxy: ProxyFlags
    @OptionGroup(title: "Transfer") var transfer: TransferFlags
    @OptionGroup(title: "TLS") var tls: TLSFlags
    @OptionGroup(title: "Bandwidth") var bandwidth: BandwidthFlags
    @OptionGroup(title: "Cache") var cache: CacheFlags
    @OptionGroup(title: "Output") var output: OutputFlags
    @OptionGroup(title: "Credential sources") var credentialSources: CredentialSourceFlags
    @OptionGroup(title: "Proxy auto-config") var pac: PACFlags
    @OptionGroup(title: "AWS") var aws: AWSSigV4Flags
    @OptionGroup(title: "Web page") var webPage: WebPageFlags

    /// The checks that need every URL, run once ``ArgumentSplitter``'s URLs are set (not as the parser's
    /// `validate()`, which would see none of them).
    func validateArguments() throws {
        if !configFiles.isEmpty {
            throw ValidationError("-K/--config cannot be read on this command line.")
        }
        if urls.isEmpty && pac.testURL == nil { throw ValidationError("No URL given.") }
        if pac.testURL != nil && pac.source == nil { throw ValidationError("--pac-test needs --pac.") }
        if let resume = output.continueAt, resume != "-" {
            guard let offset = Int64(resume), offset >= 0, request.uploadFile.map({ $0 != "-" }) == true else {
                throw ValidationError("-C takes '-' (resume the output file) or, with -T FILE, a byte offset.")
            }
        }
        _ = try aws.middleware(user: request.user, url: urls.first)  // --aws-sigv4 without -u KEY:SECRET: usage
        if output.parallelMax < 1 { throw ValidationError("--parallel-max must be at least 1.") }
        if transfer.maxRedirects < 0 || transfer.retry < 0 { throw ValidationError("Counts cannot be negative.") }
        if (transfer.retryDelay ?? 0) < 0 || (transfer.retryMaxTime ?? 0) < 0 {
            throw ValidationError("--retry-delay and --retry-max-time cannot be negative.")
        }
        if output.outputs.count > urls.count { throw ValidationError("More -o files than URLs.") }
        if cache.directory == nil && (cache.permanent || cache.clearSession) {
            throw ValidationError("--cache-permanent and --cache-clear-session need --cache DIR.")
        }
        if cache.directory == nil && (cache.policy != nil || cache.seconds != nil) {
            throw ValidationError("--cache-policy and --cache-seconds need --cache DIR.")
        }
        try webPage.validate(urls: urls, outputs: output.outputs)
    }

    /// Parses the arguments and runs; usage errors exit with 2, as curl's do. `--next` starts another group of
    /// URLs with its own options (curl's flag): every group is parsed first, then run in order; the exit code is
    /// the last failing group's. URLs, `--url` and `-K/--config` are read by ``ArgumentSplitter`` first, so the
    /// parser sees only the options and the time grows linearly with the number of URLs.
    static func main() async {
        var commands: [any ParsableCommand] = []
        var showsVersion = false
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if ArgumentSplitter.isNeeded(for: arguments),
                let outcome = try ArgumentSplitter(table: .of(ASICommand.self)).split(arguments)
            {
                var warns = false
                // An empty group (a trailing --next) is dropped, as the whole-line path drops it.
                for group in outcome.groups where !(group.parserArguments.isEmpty && group.urls.isEmpty) {
                    let command = try parsed(group.parserArguments, urls: group.urls)
                    if let asi = command as? ASICommand, !asi.output.silent || asi.output.showError { warns = true }
                    if let asi = command as? ASICommand, asi.showsVersion { showsVersion = true }
                    commands.append(command)
                }
                if warns && !outcome.warnings.isEmpty {
                    Output.writeError(outcome.warnings.map { "asi: \($0)\n" }.joined())
                }
            } else {
                for group in groups(arguments) {
                    let command = try parsed(group, urls: nil)
                    if let asi = command as? ASICommand, asi.showsVersion { showsVersion = true }
                    commands.append(command)
                }
            }
        } catch let failure as TransferFailure {
            Output.writeError("asi: (\(failure.exitCode)) \(failure.message)\n")
            exit(withError: ExitCode(failure.exitCode))
        } catch let error where exitCode(for: error) == .validationFailure {
            Output.writeError("asi: " + message(for: error) + "\nTry 'asi --help' for more information.\n")
            exit(withError: ExitCode(2))
        } catch {
            exit(withError: error)
        }
        if showsVersion {
            // curl's -V: the report and exit 0, whatever else the command line says; nothing is transferred.
            do {
                try Output.writeStandardOutput(VersionReport.text)
            } catch {
                exit(withError: ExitCode(error.exitCode))
            }
            return
        }
        var failure: ExitCode?
        for var command in commands {
            do {
                if var command = command as? any AsyncParsableCommand {
                    try await command.run()
                } else {
                    try command.run()
                }
            } catch let code as ExitCode {
                failure = code
            } catch {
                exit(withError: error)
            }
        }
        if let failure { exit(withError: failure) }
    }

    /// Parses one group's options and sets its URLs.
    /// - Parameters:
    ///   - arguments: The options (and, without `urls`, the URLs too).
    ///   - urls: The group's URLs, or `nil` when the parser read them from `arguments`.
    /// - Returns: The command, validated; or what the parser answered instead (its help command for `--help`).
    /// - Throws: The parser's errors, or `ValidationError`.
    static func parsed(_ arguments: [String], urls: [String]?) throws -> any ParsableCommand {
        let parsed = try parseAsRoot(arguments)
        guard var command = parsed as? ASICommand else { return parsed }
        command.urls = (urls ?? command.urls) + command.urlOptions
        if command.showsVersion { return command }  // -V needs no URL
        try command.validateArguments()
        return command
    }

    /// The arguments split at each `--next`; empty groups are dropped.
    static func groups(_ arguments: [String]) -> [[String]] {
        let groups = arguments.split(separator: "--next", omittingEmptySubsequences: true).map(Array.init)
        return groups.isEmpty ? [[]] : groups
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)  // a closed stdout becomes a write error (exit 23), as in curl
        if pac.testURL != nil { return try await pac.runTest() }
        let targets: [Target]
        let context: TransferContext
        do {
            targets = try Target.plan(urls: urls, output: output)
            context = try TransferContext(
                targets: targets, request: request, auth: auth, cookie: cookie, connection: connection,
                transfer: transfer, tls: tls, bandwidth: bandwidth, cache: cache, output: output,
                credentialSources: credentialSources, proxy: proxy, pac: pac,
                signer: try aws.middleware(user: request.user, url: urls.first))
            try await context.builder.sources.validateKeyring()
            try await cache.prepare(context.client.cache)
        } catch {
            let failure = TransferFailure(error)
            if !output.silent || output.showError {
                Output.writeError("asi: (\(failure.exitCode)) \(failure.message)\n")
            }
            throw ExitCode(failure.exitCode)
        }
        context.cookies.loadCookieFiles()
        if webPage.mode != nil, let target = targets.first {
            let code = await WebPageTransfer(context: context, flags: webPage).run(target, output: output.outputs.first)
            try? await context.client.shutdown()
            if code != 0 { throw ExitCode(code) }
            return
        }
        var code =
            output.parallel
            ? await ParallelTransfer(context: context).run(targets)
            : await SerialTransfer(context: context).run(targets)
        if let failure = context.finish() { code = failure.exitCode }
        Verbose.printAverageBandwidth(context.client.averageBandwidthPerSecond, if: context.verbose)
        try? await context.client.shutdown()
        if code != 0 { throw ExitCode(code) }
    }
}
