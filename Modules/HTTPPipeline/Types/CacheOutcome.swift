/// How the cache took part in a request (`asi -v` prints it as `cache: …`).
public enum CacheOutcome: Sendable, Hashable, CustomStringConvertible {
    /// A stored entry answered without the network (ASIHTTPRequest's `didUseCachedResponse`).
    case hit
    /// The server answered; nothing stored was used (nothing stored, stale without validators, or a changed
    /// resource after a revalidation).
    case miss
    /// A stale (or always-revalidated) entry was confirmed by a `304`; its body answered.
    case revalidated
    /// The request failed and a stored entry answered instead (`fallbackToCacheIfLoadFails`).
    case fallback
    /// `dontLoad` (or a request's `Cache-Control: only-if-cached`) found nothing stored: a `504` answered.
    case notCached

    /// `hit`, `miss`, `revalidated (304)`, `fallback` or `not cached`.
    public var description: String {
        switch self {
        case .hit: "hit"
        case .miss: "miss"
        case .revalidated: "revalidated (304)"
        case .fallback: "fallback"
        case .notCached: "not cached"
        }
    }
}
