extension PACProxyResolver {
    /// Limits and caches of a ``PACProxyResolver``.
    public struct Configuration: Sendable {
        /// The longest one evaluation of the script (loading it, or one `FindProxyForURL` call) may run; an
        /// endless loop is stopped there and the answer is `DIRECT`. Default 1 second.
        public var evaluationTimeLimit: Duration
        /// The most memory the script's heap may hold. Default 32 MiB.
        public var memoryLimit: Int
        /// The longest one DNS lookup from the script (`dnsResolve`, `isResolvable`, `isInNet` with a name) may
        /// take; a slower name does not resolve. Default 1 second (never more than the evaluation's time left).
        public var dnsTimeout: Duration
        /// How long a DNS answer (or its absence) is reused. Default 60 seconds.
        public var dnsCacheLifetime: Duration
        /// How long a fetched or read PAC script is used before it is fetched again. Default 5 minutes.
        public var scriptLifetime: Duration
        /// The largest PAC file accepted. Default 1 MB (1,000,000 bytes).
        public var maxScriptBytes: Int
        /// What `myIpAddress()` answers; `nil` (the default) resolves the host's own name, as pacparser does,
        /// falling back to `127.0.0.1`.
        public var myIPAddress: String?

        /// Creates a configuration.
        /// - Parameters:
        ///   - evaluationTimeLimit: The time limit of one evaluation.
        ///   - memoryLimit: The heap's memory cap in bytes.
        ///   - dnsTimeout: The time limit of one DNS lookup.
        ///   - dnsCacheLifetime: How long DNS answers are reused.
        ///   - scriptLifetime: How long a script is used before it is fetched again.
        ///   - maxScriptBytes: The largest PAC file accepted.
        ///   - myIPAddress: A fixed answer for `myIpAddress()`.
        public init(
            evaluationTimeLimit: Duration = .seconds(1),
            memoryLimit: Int = 32 << 20,
            dnsTimeout: Duration = .seconds(1),
            dnsCacheLifetime: Duration = .seconds(60),
            scriptLifetime: Duration = .seconds(300),
            maxScriptBytes: Int = 1_000_000,
            myIPAddress: String? = nil
        ) {
            self.evaluationTimeLimit = evaluationTimeLimit
            self.memoryLimit = memoryLimit
            self.dnsTimeout = dnsTimeout
            self.dnsCacheLifetime = dnsCacheLifetime
            self.scriptLifetime = scriptLifetime
            self.maxScriptBytes = maxScriptBytes
            self.myIPAddress = myIPAddress
        }
    }
}
