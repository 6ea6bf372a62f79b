import FoundationEssentials
import HTTPCore

/// Loads the PAC script from its source, keeps it for the configured lifetime, and loads it again after that.
/// A failed load is remembered for a short while (30 seconds at most) so that a missing PAC file does not cost a
/// fetch per request. Concurrent callers share one load.
actor PACScriptLoader {
    private let source: PACSource
    private let fetcher: (any PACScriptFetcher)?
    private let lifetime: Duration
    private let maxBytes: Int
    private var current: (result: Result<PACScript, ClientError>, loaded: ContinuousClock.Instant)?
    private var waiters: [CheckedContinuation<Result<PACScript, ClientError>, Never>]?
    private var generation = 0

    init(source: PACSource, fetcher: (any PACScriptFetcher)?, configuration: PACProxyResolver.Configuration) {
        self.source = source
        self.fetcher = fetcher
        lifetime = configuration.scriptLifetime
        maxBytes = configuration.maxScriptBytes
    }

    /// The script, loaded when there is none yet or its lifetime has passed.
    /// - Returns: The script, or why it could not be loaded. The second value is `true` for the caller whose load
    ///   failed (it logs the warning), `false` otherwise.
    func script() async -> (Result<PACScript, ClientError>, freshFailure: Bool) {
        if let current {
            let keep: Duration
            if case .failure = current.result { keep = min(lifetime, .seconds(30)) } else { keep = lifetime }
            if ContinuousClock.now - current.loaded < keep { return (current.result, false) }
        }
        if waiters != nil {
            let result = await withCheckedContinuation { waiters?.append($0) }
            return (result, false)
        }
        waiters = []
        let result = await load()
        current = (result, .now)
        let waiting = waiters ?? []
        waiters = nil
        for waiter in waiting { waiter.resume(returning: result) }
        if case .failure = result { return (result, true) }
        return (result, false)
    }

    private func load() async -> Result<PACScript, ClientError> {
        let bytes: [UInt8]
        switch source.base {
        case .text(let text):
            bytes = Array(text.utf8)
        case .file(let path):
            switch PACFileReader.read(path, maxBytes: maxBytes) {
            case .success(let read): bytes = read
            case .failure(let error): return .failure(error)
            }
        case .url(let url):
            guard let fetcher else {
                return .failure(ClientError(.invalidConfiguration, stage: .transport,
                                            message: "No fetcher for the PAC URL \(url.absoluteString)"))
            }
            do {
                let download = try await fetcher.fetch(url, maxBytes: maxBytes)
                guard download.status == 200 else {
                    return .failure(ClientError(.protocolViolation, stage: .transport,
                                                message: "PAC URL answered \(download.status)"))
                }
                bytes = download.body
            } catch let error as ClientError {
                return .failure(error)
            } catch {
                return .failure(ClientError(.connectFailed, stage: .transport, message: "PAC fetch failed",
                                            underlying: error))
            }
        }
        guard bytes.count <= maxBytes else {
            return .failure(ClientError(.protocolViolation, stage: .transport,
                                        message: "PAC file is larger than \(maxBytes) bytes"))
        }
        generation += 1
        return .success(PACScript(text: Self.decode(bytes), generation: generation))
    }

    /// UTF-8 (without a byte order mark), or Latin-1 when the bytes are not UTF-8.
    /// - Parameter bytes: The PAC file.
    /// - Returns: The text.
    static func decode(_ bytes: [UInt8]) -> String {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if let text = String(validating: body, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
        return String(scalars)
    }
}
