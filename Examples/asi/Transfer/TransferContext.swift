import FoundationEssentials
import BrotliCodec
import GzipCodec
import HSTSFile
import HTTPAuthentication
import HTTPCore
import HTTPPipeline
import Logging
import PublicSuffix
import SocketTransport
import TerminalProgress
import ZstdCodec

#if canImport(Glibc)
import Glibc
#endif

/// Everything the transfers share: the client, the request builder and the output settings.
struct TransferContext: Sendable {
    let client: Client
    let cookies: CookieSession
    /// `--hsts FILE`: the HSTS hosts, read at the start and written at the end.
    let hsts: HSTSFileStore?
    let builder: RequestBuilder
    let bar: TerminalProgressBar<ContinuousClock>?
    /// Whether each serial transfer shows curl's progress meter (``ProgressMeter``).
    let showsMeter: Bool
    let maxTime: Double?
    let include: Bool
    let fail: Bool
    let verbose: Bool
    let parallelMax: Int
    let writeOut: WriteOut?
    private let showsErrors: Bool

    init(
        targets: [Target], request: RequestFlags, auth: AuthFlags = AuthFlags(), cookie: CookieFlags,
        connection: ConnectionFlags, transfer: TransferFlags, tls: TLSFlags, bandwidth: BandwidthFlags,
        cache: CacheFlags, output: OutputFlags, credentialSources: CredentialSourceFlags = CredentialSourceFlags(),
        proxy proxyFlags: ProxyFlags = ProxyFlags(), pac: PACFlags = PACFlags(),
        environment: [String: String] = ProcessInfo.processInfo.environment, signer: (any Middleware)? = nil
    ) throws {
        var logger = Logger(label: "asi") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = output.verbosity >= 2 ? .trace : output.verbosity == 1 ? .debug : .critical
        var warnings = logger
        warnings.logLevel = max(logger.logLevel, .warning)
        cookies = try CookieSession(flags: cookie, logger: warnings)
        do {
            hsts = try tls.hsts.map { try HSTSFileStore(path: $0) }
        } catch {
            throw TransferFailure(26, "Cannot read the HSTS file: \((error as? ClientError)?.message ?? "\(error)")")
        }
        let sources = try CredentialSources(credentialSources)
        var transport = POSIXTransport.Configuration()
        transport.addressOverrides = try connection.addressOverrides()
        transport.protocols = request.protocols
        // -Z shares a connection being opened (curl's CURLOPT_PIPEWAIT) unless --parallel-immediate.
        transport.waitsForMultiplexing = !output.parallelImmediate
        if let milliseconds = connection.happyEyeballsTimeout {
            transport.happyEyeballsDelay = .milliseconds(max(milliseconds, 0))  // curl takes a negative as 0 too
        }
        // -x first, then --pac, then the environment.
        let pacResolver = proxyFlags.proxy == nil ? pac.resolver(logger: warnings) : nil
        let proxy = pacResolver == nil ? try proxyFlags.resolver(environment: environment) : nil
        // The proxy of the first http URL: curl's Basic Proxy-Authorization up front goes to it (the transport sends
        // that field only to a plain HTTP proxy, which every http URL reaches through the same variable or -x).
        let proxyRoute = targets.lazy.filter { $0.url.scheme?.lowercased() == "http" }.first
            .flatMap { Self.route(of: proxy, for: $0.url) }
        transport.proxyResolver = pacResolver ?? proxy
        // The https:// proxy's own TLS settings (--proxy-cacert, --proxy-insecure).
        transport.proxyTLS = proxyFlags.proxyTLS
        transport.proxyTLS.pinnedPublicKeys = try TLSFlags.pins(proxyFlags.proxyPinnedPublicKey)
        // .netrc up front on redirect hops only with Basic: not with --anyauth, --digest or --ntlm (nothing goes out
        // before a challenge there: curl test 1966) nor with a bearer token (curl test 2006).
        let waitsForChallenge = request.anyAuth || auth.scheme == .digest || auth.scheme == .ntlm
        let netrcOnRedirects = waitsForChallenge || auth.bearer != nil ? nil : sources.netrc
        var clientConfiguration = Client.Configuration(
            authenticationHandler: CredentialPrompt.handler(), logger: logger, publicSuffixes: .libpsl())
        // The credential prompt blocks on the terminal: on the event loop it would stall every parallel transfer.
        clientConfiguration.runsOnTransportExecutor = false
        var middleware: [any Middleware] = [ManualCookiesLast()]
        if let netrcOnRedirects { middleware.append(NetrcRedirectAuthorization(netrc: netrcOnRedirects)) }
        if let signer { middleware.append(signer) }  // --aws-sigv4 signs what is sent, after the changes above
        if output.verbosity > 0 {  // -v: each hop as it goes out
            middleware.append(VerboseExchange(
                offersHTTP2: !transport.protocols.isEmpty,
                priorKnowledge: transport.protocols.contains { $0.speaksCleartextWithPriorKnowledge }))
        }
        client = Client(
            transport: .posix(transport), cache: cache.makeStore(), cookies: cookies.store, hsts: hsts,
            persistentCredentials: sources.keyring,
            middleware: middleware,
            // curl's Accept-Encoding: deflate, gzip, br, zstd; br and zstd only when their libraries load.
            codecs: [.zlib(), .brotli(), .zstd()],
            // curl's NTLM workstation name: the machine's own name never leaves it.
            authenticators: [.digest(), .ntlm(workstation: "WORKSTATION", allowsNTLMv1: auth.allowNTLMv1)],
            bandwidth: try bandwidth.limiter(verbose: output.verbosity > 0),
            configuration: clientConfiguration)
        var options = cache.applied(to: Self.options(request: request, transfer: transfer, tls: tls, fail: output.fail))
        options.maxBandwidthPerSecond = bandwidth.limitRate?.limit
        options.tls.pinnedPublicKeys = try tls.pins()
        auth.apply(to: &options, hasUser: request.user != nil)
        options.tunnelsThroughProxy = proxyFlags.proxyTunnel
        if waitsForChallenge {
            options.presentsCredentialsBeforeChallenge = false  // curl starts each URL without credentials
        }
        // --digest/--ntlm (not --anyauth): a body goes only once the scheme answered, as curl's
        options.withholdsBodyUntilChallenged = auth.scheme == .digest || auth.scheme == .ntlm
        builder = RequestBuilder(
            method: request.method,
            headers: (auth.preemptiveProxyField(route: proxyRoute).map { [$0] } ?? []) + request.headers,
            data: request.data, dataBinary: request.dataBinary,
            form: request.form, uploadFile: request.uploadFile, uploadOffset: output.continueAt.flatMap { Int64($0) },
            head: request.head, cookies: cookie.cookies,
            usesCookieEngine: cookie.usesCookieEngine,
            credential: signer == nil ? request.user.map(Self.credential) : nil,  // -u is the AWS key with --aws-sigv4
            preemptiveBasic: !request.anyAuth && (auth.scheme == nil || auth.scheme == .basic),
            options: options, sources: sources)
        let bodyOnTerminal =
            Output.isTerminal(1) && targets.contains { $0.destination == .standardOutput }
        if output.parallel {
            // -Z: the queue's bar with -#, or when stderr is a terminal and the body is not (curl draws its
            // parallel meter; the bar makes the queue size each GET with a HEAD, so it is not drawn into a pipe).
            let drawn = output.progressBar || (Output.isTerminal(2) && !bodyOnTerminal)
            bar = !output.silent && drawn ? TerminalProgressBar() : nil
            showsMeter = false
        } else {
            // curl's rules: nothing with -s; -# draws the bar; otherwise the meter, on a terminal or not, unless
            // the body goes to the terminal.
            bar = !output.silent && output.progressBar ? TerminalProgressBar() : nil
            showsMeter = !output.silent && !output.progressBar && !bodyOnTerminal
        }
        maxTime = transfer.maxTime
        include = output.include || request.head
        fail = output.fail
        verbose = output.verbosity > 0
        parallelMax = output.parallelMax
        writeOut = try output.writeOut.map(WriteOut.init(argument:))
        showsErrors = !output.silent || output.showError
    }

    /// Prints `asi: (code) message` on stderr, unless `-s` without `-S`.
    func report(_ failure: TransferFailure) {
        if showsErrors { Output.writeError("asi: (\(failure.exitCode)) \(failure.message)\n") }
    }

    /// Draws the progress bar's last state and writes the `-c` cookie jar.
    /// - Returns: The failure writing the jar, if any.
    func finish() -> TransferFailure? {
        bar?.finish()
        do {
            try cookies.save()
            try hsts?.save()
            return nil
        } catch let error as TransferFailure {
            report(error)
            return error
        } catch {
            let reason = (error as? ClientError)?.message ?? "\(error)"
            let failure = TransferFailure(23, "Cannot write the HSTS file: \(reason)")
            report(failure)
            return failure
        }
    }

    /// The route `resolver` gives `url`, for the resolvers `asi` makes (they answer without waiting); `nil` for a
    /// direct route or no resolver.
    static func route(of resolver: (any ProxyResolver)?, for url: URL) -> ProxyRoute? {
        let route: ProxyRoute? =
            switch resolver {
            case let fixed as FixedProxyResolver: fixed.routes(for: url).first
            case let environment as EnvironmentProxyResolver: environment.route(for: url)
            default: nil
            }
        return route?.isDirect == false ? route : nil
    }

    /// `user:password`; a missing password is asked for on the terminal when stdin is one (as curl does), else
    /// empty.
    static func credential(_ text: String) -> Credential {
        guard let colon = text.firstIndex(of: ":") else {
            guard isatty(0) == 1 else { return Credential(user: text, password: "") }
            return Credential(user: text, password: CredentialPrompt.readPassword(
                prompt: "Enter password for user '\(text)': ") ?? "")
        }
        return Credential(user: String(text[..<colon]), password: String(text[text.index(after: colon)...]))
    }

    static func options(
        request: RequestFlags, transfer: TransferFlags, tls: TLSFlags, fail: Bool
    ) -> RequestOptions {
        var options = RequestOptions()
        options.followsRedirects = transfer.location
        options.maxRedirects = transfer.maxRedirects
        options.redirectBehavior = transfer.post301 || transfer.post302 ? .rfc2616 : .browser
        var inactivity = transfer.speedTime ?? 10
        if let maxTime = transfer.maxTime { inactivity = min(inactivity, maxTime) }
        options.timeout = .milliseconds(Int64(inactivity * 1000))
        options.connectTimeout = transfer.connectTimeout.map { .milliseconds(Int64($0 * 1000)) }
        // --retry takes curl's meaning (transient statuses and errors, backoff), not ASIHTTPRequest's
        // retry-on-timeout, which stays the library's retriesOnTimeout.
        options.retryPolicy = transfer.retryPolicy(failsOnHTTPError: fail)
        // curl's -Y: the rate a window of -y seconds (30 by default) must reach; -y alone stays the inactivity
        // timeout, which is curl's -y with its default limit of 1 byte per second.
        options.lowSpeedLimit = transfer.speedLimit.map {
            LowSpeedLimit(bytesPerSecond: $0, duration: .milliseconds(Int64((transfer.speedTime ?? 30) * 1000)))
        }
        options.allowsCompressedResponse = transfer.compressed
        // --compressed: inflate as the body arrives, so it streams to stdout; otherwise stream it as sent.
        options.inflatesWhenComplete = !transfer.compressed
        options.compressesRequestBody = request.compressRequest
        options.userAgent = request.userAgent
        if request.http10 { options.httpVersion = .http1_0 }
        if request.noKeepAlive { options.persistentConnection = false }
        options.tls = TLSOptions(
            validatesCertificate: !tls.insecure, trustedCAFile: tls.caCertificate,
            clientIdentity: tls.certificate.map { certificate in
                switch tls.certificateType {
                case .p12: ClientIdentity(.pkcs12(path: certificate), password: tls.password)
                case .pem:
                    ClientIdentity(
                        .pem(certificatePath: certificate, privateKeyPath: tls.key ?? certificate),
                        password: tls.password)
                }
            })
        return options
    }
}
