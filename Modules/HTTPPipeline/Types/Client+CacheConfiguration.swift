public import FoundationEssentials
public import HTTPCore

extension Client {
    /// The cache rules every request of the client shares (ASIDownloadCache's settings).
    public struct CacheConfiguration: Sendable {
        /// The policy of requests that leave ``RequestOptions/cachePolicy`` empty (ASIDownloadCache's
        /// `defaultCachePolicy`). Default ``CachePolicy/askServerIfModifiedWhenStale``; setting it empty stores
        /// that default, as ASIHTTPRequest did.
        public var defaultPolicy: CachePolicy {
            get { storedPolicy }
            set { storedPolicy = newValue.isEmpty ? .askServerIfModifiedWhenStale : newValue }
        }
        private var storedPolicy: CachePolicy
        /// Whether `Cache-Control`, `Pragma`, `Expires` and the other freshness fields are obeyed
        /// (`shouldRespectCacheControlHeaders`). Default `true`. `false` stores responses even with `no-store` or
        /// `no-cache` and treats every stored entry as fresh (for ``RequestOptions/secondsToCache`` seconds when
        /// set, else for ever).
        public var respectsCacheControlHeaders: Bool
        /// The clock freshness is measured with. Default: the system clock; tests inject their own.
        public var now: @Sendable () -> Date

        /// Creates cache rules.
        /// - Parameters:
        ///   - defaultPolicy: The policy of requests that ask for the default.
        ///   - respectsCacheControlHeaders: Whether the server's caching fields are obeyed.
        ///   - now: The clock.
        public init(
            defaultPolicy: CachePolicy = .askServerIfModifiedWhenStale,
            respectsCacheControlHeaders: Bool = true,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.storedPolicy = defaultPolicy.isEmpty ? .askServerIfModifiedWhenStale : defaultPolicy
            self.respectsCacheControlHeaders = respectsCacheControlHeaders
            self.now = now
        }
    }
}
