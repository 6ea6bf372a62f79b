import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Logging
import TerminalProgress
import Testing

/// Reads `Docs/Guide/Defaults.md` and checks every row against the real defaults, so the documentation cannot
/// drift from the code. A row whose Swift name is unknown here fails, and so does a default checked here that
/// the table does not list.
@Suite struct DocumentedDefaultsTests {
    /// One row of the table: the Swift name and the checked value (the first code span of the last column).
    struct Row {
        var name: String
        var value: String
        var line: Int
    }

    @Test func everyDocumentedDefaultMatchesTheCode() async throws {
        let rows = try Self.rows()
        #expect(rows.count >= 60, "Defaults.md should have a row for every default; found \(rows.count)")
        let actual = try await Self.actualDefaults()
        for row in rows {
            guard let value = actual[row.name] else {
                Issue.record("Defaults.md:\(row.line): unknown Swift name \(row.name); add a check for it")
                continue
            }
            #expect(
                Self.matches(documented: row.value, actual: value),
                "Defaults.md:\(row.line): \(row.name) is documented as \(row.value) but is \(value)")
        }
    }

    @Test func everyCheckedDefaultIsDocumented() async throws {
        let documented = Set(try Self.rows().map(\.name))
        for name in try await Self.actualDefaults().keys.sorted() {
            if !documented.contains(name) { Issue.record("Defaults.md has no row for \(name)") }
        }
    }

    @Test func patternsMatchOnlyWhatTheySay() {
        #expect(Self.matches(documented: "<a> (Linux <b>) X/<c>", actual: "tool (Linux 6.1) X/0.1"))
        #expect(!Self.matches(documented: "<a> (Linux <b>) X/<c>", actual: "tool (BSD 6.1) X/0.1"))
        #expect(!Self.matches(documented: "10 s", actual: "1 s"))
    }

    // MARK: - The table

    static let repositoryRoot: URL = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ relativePath: String) throws -> String {
        String(decoding: try Data(contentsOf: repositoryRoot.appending(path: relativePath)), as: UTF8.self)
    }

    /// Table rows whose second column is a code span: `| Option | `Swift name` | ASI | `value` ... |`.
    static func rows() throws -> [Row] {
        var rows: [Row] = []
        for (index, line) in try read("Docs/Guide/Defaults.md").split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(trimmed)
            // A row splits into ["", option, name, asi, default, ""].
            guard cells.count == 6, let name = firstCodeSpan(cells[2]), let value = firstCodeSpan(cells[4]) else {
                continue
            }
            rows.append(Row(name: name, value: value, line: index + 1))
        }
        return rows
    }

    static func trimmed(_ text: some StringProtocol) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    static func firstCodeSpan(_ cell: String) -> String? {
        let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        return String(parts[1])
    }

    /// Equality, except that `<word>` in the documented value stands for any non-empty text.
    static func matches(documented: String, actual: String) -> Bool {
        var literals: [Substring] = []
        var rest = documented[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            literals.append(rest[..<open])
            rest = rest[rest.index(after: close)...]
        }
        guard !literals.isEmpty else { return documented == actual }
        literals.append(rest)
        guard actual.hasPrefix(literals[0]) else { return false }
        var remaining = actual.dropFirst(literals[0].count)
        for literal in literals.dropFirst().dropLast() {
            // The wildcard before this literal takes at least one character.
            guard let found = remaining.dropFirst().firstRange(of: literal) else { return false }
            remaining = remaining[found.upperBound...]
        }
        let last = literals[literals.count - 1]
        return remaining.count > last.count && remaining.hasSuffix(last)
    }

    // MARK: - Rendering

    static func render(_ duration: Duration?) -> String {
        guard let duration else { return "nil" }
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        if seconds == 0 && attoseconds % 1_000_000_000_000_000 != 0 { return "\(attoseconds / 1_000_000_000_000) µs" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    static func render(bytes: Int?) -> String {
        guard let bytes else { return "nil" }
        for (unit, size) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        where bytes >= size && bytes % size == 0 {
            return "\(bytes / size) \(unit)"
        }
        return String(bytes)
    }

    static func render(_ value: (some Any)?) -> String {
        guard let value else { return "nil" }
        return String(describing: value)
    }

    static func typeName(_ value: Any) -> String { String(describing: type(of: value)) }

    // MARK: - The real defaults

    static func actualDefaults() async throws -> [String: String] {
        let options = RequestOptions()
        let request = Request(url: URL(string: "http://example.com/")!)
        var defaults: [String: String] = [
            "Request.method": request.method.rawValue,
            "Request.tag": String(request.tag),
            "Request.userInfo": request.userInfo.isEmpty ? "[:]" : "\(request.userInfo.count) values",
            "Request.usesPersistentConnection": String(request.usesPersistentConnection),
            "RequestOptions.timeout": render(options.timeout),
            "RequestOptions.connectTimeout": render(options.connectTimeout),
            "RequestOptions.lowSpeedLimit": render(options.lowSpeedLimit),
            "RequestOptions.retriesOnTimeout": String(options.retriesOnTimeout),
            "RequestOptions.followsRedirects": String(options.followsRedirects),
            "RequestOptions.redirectBehavior": "." + String(describing: options.redirectBehavior),
            "RequestOptions.maxRedirects": String(options.maxRedirects),
            "RequestOptions.userAgent": render(options.userAgent),
            "RequestOptions.credential": render(options.credential),
            "RequestOptions.authenticationScheme": render(options.authenticationScheme),
            "RequestOptions.presentsCredentialsBeforeChallenge": String(options.presentsCredentialsBeforeChallenge),
            "RequestOptions.usesCredentialStore": String(options.usesCredentialStore),
            "RequestOptions.usesPersistentCredentialStore": String(options.usesPersistentCredentialStore),
            "RequestOptions.proxyCredential": render(options.proxyCredential),
            "RequestOptions.proxyAuthenticationScheme": render(options.proxyAuthenticationScheme),
            "RequestOptions.failsOnUnansweredChallenge": String(options.failsOnUnansweredChallenge),
            "RequestOptions.keepsMethodWithBody": String(options.keepsMethodWithBody),
            "RequestOptions.keepsCredentialsOnRedirect": String(options.keepsCredentialsOnRedirect),
            "RequestOptions.keepsMethodOnRedirect": String(options.keepsMethodOnRedirect),
            "RequestOptions.withholdsBodyUntilChallenged": String(options.withholdsBodyUntilChallenged),
            "RequestOptions.usesCookieStore": String(options.usesCookieStore),
            "RequestOptions.requestCookies": options.requestCookies.isEmpty ? "[]" : "not empty",
            "RequestOptions.cachePolicy": options.cachePolicy.isEmpty ? "[]" : String(options.cachePolicy.rawValue),
            "RequestOptions.cacheStoragePolicy": ".\(options.cacheStoragePolicy)",
            "RequestOptions.secondsToCache": render(options.secondsToCache),
            "RequestOptions.httpVersion": options.httpVersion.description,
            "RequestOptions.persistentConnection": render(options.persistentConnection),
            "RequestOptions.persistentConnectionTimeout": render(options.persistentConnectionTimeout),
            "RequestOptions.tls.validatesCertificate": String(options.tls.validatesCertificate),
            "RequestOptions.tls.trustedCAFile": render(options.tls.trustedCAFile),
            "RequestOptions.tls.clientIdentity": render(options.tls.clientIdentity),
            "RequestOptions.tls.pinnedPublicKeys": render(options.tls.pinnedPublicKeys),
            "RequestOptions.progress": options.progress == nil ? "nil" : "set",
            "RequestOptions.allowsCompressedResponse": String(options.allowsCompressedResponse),
            "RequestOptions.inflatesWhenComplete": String(options.inflatesWhenComplete),
            "RequestOptions.compressesRequestBody": String(options.compressesRequestBody),
            "RequestOptions.download": render(options.download),
            "RequestOptions.maxBandwidthPerSecond": render(options.maxBandwidthPerSecond),
            "RequestOptions.proxyResolver": options.proxyResolver == nil ? "nil" : "set",
            "RequestOptions.tunnelsThroughProxy": String(options.tunnelsThroughProxy),
            "RequestOptions.retryPolicy": render(options.retryPolicy),
            "DownloadOptions.temporaryPath": render(DownloadOptions(destinationPath: "/tmp/x").temporaryPath),
            "DownloadOptions.allowsResume": String(DownloadOptions(destinationPath: "/tmp/x").allowsResume),
            "RequestBody.fileChunkSize": render(bytes: RequestBody.fileChunkSize),
        ]
        defaults.merge(try await clientDefaults()) { $1 }
        defaults.merge(queueAndProgressDefaults()) { $1 }
        defaults.merge(try await formDefaults()) { $1 }
        defaults.merge(try pluginDefaults()) { $1 }
        defaults.merge(retryPolicyDefaults()) { $1 }
        return defaults
    }

    static func clientDefaults() async throws -> [String: String] {
        // A body that decodes differently as Latin-1, Windows-1252 and UTF-8, sent without a charset.
        let sample: [UInt8] = [0x80, 0xE9]
        let client = Client(
            transport: ScriptedTransport { _, _ in Response(status: .ok, body: ResponseBody(bytes: sample)) })
        let text = try await client.send(Request(url: URL(string: "http://example.com/")!)).text()
        let encodings: [(String, TextEncoding)] = [
            (".isoLatin1", .isoLatin1), (".windows1252", .windows1252), (".utf8", .utf8),
        ]
        let configuration = Client.Configuration()
        return [
            "Client.cache": client.cache.map { typeName($0) } ?? "nil",
            "Client.cookies": typeName(client.cookies),
            "Client.credentials": typeName(client.credentials),
            "Client.persistentCredentials": client.persistentCredentials.map { typeName($0) } ?? "nil",
            "Client.middleware": client.middleware.isEmpty ? "[]" : "\(client.middleware.count) middleware",
            "Client.codecs": client.codecs.isEmpty ? "[]" : "\(client.codecs.count) codecs",
            "Client.authenticators": client.authenticators.isEmpty ? "[]" : "\(client.authenticators.count)",
            "Client.progress": client.progress.map { typeName($0) } ?? "nil",
            "Client.bandwidth": client.bandwidth.map { typeName($0) } ?? "nil",
            "Client.hsts": client.hsts.map { typeName($0) } ?? "nil",
            "Client.Configuration.retryPolicy": render(configuration.retryPolicy),
            "Client.Configuration.userAgent": configuration.userAgent,
            "Client.Configuration.authenticationHandler": configuration.authenticationHandler == nil ? "nil" : "set",
            "Client.Configuration.maxBodySize": render(bytes: configuration.maxBodySize),
            "Client.Configuration.cache.defaultPolicy": String(configuration.cache.defaultPolicy.rawValue),
            "Client.Configuration.cache.respectsCacheControlHeaders": String(
                configuration.cache.respectsCacheControlHeaders),
            "Client.Configuration.logger": typeName(configuration.logger.handler),
            "Client.Configuration.publicSuffixes": configuration.publicSuffixes == nil ? "nil" : "set",
            "Client.Configuration.runsOnTransportExecutor": "\(configuration.runsOnTransportExecutor)",
            "Client.callbackQueue": Client.callbackQueue.label,
            "ClientResponse.text(defaultEncoding:)": encodings.first { $0.1.decode(sample) == text }?.0 ?? "unknown",
        ]
    }

    static func retryPolicyDefaults() -> [String: String] {
        let policy = RetryPolicy()
        let methods = policy.methods == RetryPolicy.idempotentMethods
            && policy.methods == [.get, .head, .put, .delete, .options, .trace]
        return [
            "RetryPolicy.maxAttempts": String(policy.maxAttempts),
            "RetryPolicy.methods": methods ? "idempotent" : render(policy.methods),
            "RetryPolicy.statuses": policy.statuses.sorted().map(String.init).joined(separator: ", "),
            "RetryPolicy.errors": policy.errors.map(\.description).sorted().joined(separator: ", "),
            "RetryPolicy.retriesRefusedConnections": String(policy.retriesRefusedConnections),
            "RetryPolicy.retriesAllErrors": String(policy.retriesAllErrors),
            "RetryPolicy.initialDelay": render(policy.initialDelay),
            "RetryPolicy.multiplier": String(policy.multiplier),
            "RetryPolicy.maxDelay": render(policy.maxDelay),
            "RetryPolicy.jitter": String(policy.jitter),
            "RetryPolicy.honoursRetryAfter": String(policy.honoursRetryAfter),
            "RetryPolicy.maxRetryAfter": render(policy.maxRetryAfter),
            "RetryPolicy.maxDuration": render(policy.maxDuration),
        ]
    }

    static func queueAndProgressDefaults() -> [String: String] {
        let queue = RequestQueue(client: Client(transport: ScriptedTransport.ok))
        let configuration = RequestQueue.Configuration()
        let bar = TerminalProgressBar<ContinuousClock>.Configuration()
        return [
            "RequestQueue.isSuspended": String(queue.isSuspended),
            "RequestQueue.Configuration.maxConcurrentRequests": String(configuration.maxConcurrentRequests),
            "RequestQueue.Configuration.cancelsAllOnFailure": String(configuration.cancelsAllOnFailure),
            "RequestQueue.Configuration.showsAccurateProgress": String(configuration.showsAccurateProgress),
            "RequestQueue.Configuration.progress": configuration.progress == nil ? "nil" : "set",
            "TerminalProgressBar.Configuration.redrawInterval": render(bar.redrawInterval),
            "TerminalProgressBar.Configuration.plainInterval": render(bar.plainInterval),
            "TerminalProgressBar.Configuration.maxRequestLines": String(bar.maxRequestLines),
            "TerminalProgressBar.Configuration.barWidth": String(bar.barWidth),
            "TerminalProgressBar.Configuration.isTerminal": render(bar.isTerminal),
            "TerminalProgressBar.Configuration.fileDescriptor": String(bar.fileDescriptor),
        ]
    }

    static func formDefaults() async throws -> [String: String] {
        var values = FormData()
        values.add("v", forKey: "k")
        var data = FormData()
        data.addData([1], forKey: "k")
        var body: [UInt8] = []
        for try await chunk in try #require(data.body).makeChunks() { body += chunk }
        let text = String(decoding: body, as: UTF8.self)
        func after(_ marker: String, upTo end: String) -> String {
            guard let start = text.firstRange(of: marker)?.upperBound, let stop = text[start...].firstRange(of: end)
            else {
                return "missing"
            }
            return String(text[start..<stop.lowerBound])
        }
        return [
            "FormData.format": FormData().format == .urlEncoded ? ".urlEncoded" : ".multipart",
            "Request(url:form:).method": Request(url: URL(string: "http://example.com/")!, form: values).method
                .rawValue,
            "FormData.contentType": values.contentType ?? "nil",
            "FormData.addData(fileName:)": after("filename=\"", upTo: "\""),
            "FormData.addData(contentType:)": after("\r\nContent-Type: ", upTo: "\r\n"),
            "FormData.mimeType(forPath:)": FormData.mimeType(forPath: "/tmp/file.zz-unknown-extension"),
        ]
    }

    /// Plugins are not dependencies of this test target: their defaults are read from the default arguments of
    /// their configuration's `init` in the source.
    static func pluginDefaults() throws -> [String: String] {
        let transport = try initDefaults(
            in: "Plugins/SocketTransport/Interface/POSIXTransport+Configuration.swift",
            after: "public struct Configuration")
        let zlib = try initDefaults(
            in: "Plugins/GzipCodec/Interface/ZlibContentCodec.swift",
            after: "public struct Configuration")
        let cookieFile = try initDefaults(
            in: "Plugins/CookieFile/Interface/CookieFileStore+Configuration.swift",
            after: "public struct Configuration")
        let http1 = try initDefaults(
            in: "Plugins/SocketTransport/HTTP1/HTTP1Limits.swift", after: "public struct HTTP1Limits")
        let prefixCookieFile = "CookieFileStore.Configuration."
        let prefixTransport = "POSIXTransport.Configuration."
        let prefixZlib = "ZlibContentCodec.Configuration."
        return [
            prefixTransport + "loopCount": render(try evaluate(transport["loopCount"])),
            prefixTransport + "maxConnectionsPerHost": render(try evaluate(transport["maxConnectionsPerHost"])),
            prefixTransport + "idleTimeout": render(try duration(transport["idleTimeout"])),
            prefixTransport + "proxyResolver": render(try evaluate(transport["proxyResolver"])),
            prefixTransport + "addressOverrides": transport["addressOverrides"] ?? "missing",
            prefixTransport + "proxyTLS": transport["proxyTLS"] ?? "missing",
            prefixTransport + "proxyParkingDuration": render(try duration(transport["proxyParkingDuration"])),
            prefixTransport + "responseLimits": transport["responseLimits"] ?? "missing",
            prefixTransport + "pinnedPublicKeys": transport["pinnedPublicKeys"] ?? "missing",
            prefixTransport + "happyEyeballsDelay": render(try duration(transport["happyEyeballsDelay"])),
            prefixTransport + "busyPoll": render(try duration(transport["busyPoll"])),
            "HTTP1Limits.maxHeadBytes": render(bytes: try evaluate(http1["maxHeadBytes"])),
            "HTTP1Limits.maxHeaderCount": render(try evaluate(http1["maxHeaderCount"])),
            "HTTP1Limits.maxLineLength": render(bytes: try evaluate(http1["maxLineLength"])),
            "HTTP1Limits.maxInterimResponses": render(try evaluate(http1["maxInterimResponses"])),
            prefixCookieFile + "keepsSessionCookies": cookieFile["keepsSessionCookies"] ?? "missing",
            prefixCookieFile + "loadsSessionCookies": cookieFile["loadsSessionCookies"] ?? "missing",
            prefixCookieFile + "limits": cookieFile["limits"] ?? "missing",
            prefixZlib + "compressionLevel": render(try evaluate(zlib["compressionLevel"])),
            prefixZlib + "maxDecodedBytes": render(bytes: try evaluate(zlib["maxDecodedBytes"])),
            prefixZlib + "maxRatio": render(try evaluate(zlib["maxRatio"])),
            prefixZlib + "ratioThreshold": render(bytes: try evaluate(zlib["ratioThreshold"])),
        ]
    }

    /// The `name: Type = value` parameters of the first `public init(` after `marker`.
    static func initDefaults(in path: String, after marker: String) throws -> [String: String] {
        let source = try read(path)
        let start = try #require(source.firstRange(of: marker)?.upperBound, "\(marker) not found in \(path)")
        let open = try #require(source[start...].firstRange(of: "public init(")?.upperBound, "no init in \(path)")
        let close = try #require(source[open...].firstRange(of: ") {")?.lowerBound, "unterminated init in \(path)")
        var defaults: [String: String] = [:]
        for parameter in source[open..<close].split(separator: ",") {
            let sides = parameter.split(separator: "=", maxSplits: 1)
            guard sides.count == 2, let name = sides[0].split(separator: ":").first else { continue }
            defaults[trimmed(name)] = trimmed(sides[1])
        }
        return defaults
    }

    /// Evaluates `nil`, an integer literal, `a << b` or `a * b`.
    static func evaluate(_ expression: String?) throws -> Int? {
        let expression = try #require(expression, "parameter not found")
        if expression == "nil" { return nil }
        let product = expression.split(separator: "*").map(trimmed)
        if product.count == 2 { return try #require(Int(product[0])) * (try #require(Int(product[1]))) }
        let shift = expression.split(separator: "<<").map(trimmed)
        if shift.count == 2 { return try #require(Int(shift[0])) << (try #require(Int(shift[1]))) }
        guard let value = Int(expression) else {
            Issue.record("cannot evaluate \(expression)")
            return nil
        }
        return value
    }

    /// Evaluates `nil`, `.zero`, `.seconds(n)`, `.milliseconds(n)` or `.microseconds(n)`.
    static func duration(_ expression: String?) throws -> Duration? {
        let expression = try #require(expression, "parameter not found")
        if expression == "nil" { return nil }
        if expression == ".zero" { return .zero }
        if expression.hasPrefix(".seconds(") {
            return .seconds(try #require(Int(expression.dropFirst(".seconds(".count).dropLast())))
        }
        if expression.hasPrefix(".milliseconds(") {
            return .milliseconds(try #require(Int(expression.dropFirst(".milliseconds(".count).dropLast())))
        }
        if expression.hasPrefix(".microseconds(") {
            return .microseconds(try #require(Int(expression.dropFirst(".microseconds(".count).dropLast())))
        }
        Issue.record("cannot evaluate \(expression)")
        return nil
    }
}
