import CLibPSL
public import HTTPCore

/// The Public Suffix List as libpsl knows it (Debian's `libpsl`, the list curl and wget use): a
/// ``PublicSuffixList`` that refuses cookies for `co.uk`, `github.io` and every other public suffix.
///
/// The list is loaded once, when the value is created: the newer of libpsl's built-in copy and the system's
/// `/usr/share/publicsuffix` file (Debian's `publicsuffix` package), so a system update refreshes it. ICANN and
/// private suffixes both count, and a top-level domain the list does not name is a suffix too (the list's
/// implicit `*` rule), as in curl.
///
/// ```swift
/// let client = Client(transport: .posix(), configuration: .init(publicSuffixes: .libpsl()))
/// ```
public final class LibPSLPublicSuffixList: PublicSuffixList {
    /// libpsl's context: read-only once loaded, and libpsl's lookups are safe from many threads at once.
    private nonisolated(unsafe) let context: OpaquePointer?
    /// Whether `context` came from `psl_latest` and is freed with the value (the built-in one is static).
    private let ownsContext: Bool

    /// Loads the list.
    ///
    /// Uses the newer of the built-in list and the system's file; when neither loads (a libpsl built without
    /// data and no file), every domain is reported as a suffix, so cookies with a `Domain` attribute are
    /// refused rather than accepted for everyone.
    public init() {
        if let latest = psl_latest(nil) {
            context = latest
            ownsContext = true
        } else {
            context = psl_builtin()  // static, or nil when libpsl was built without data
            ownsContext = false
        }
    }

    /// Whether a list was loaded; when `false`, ``isPublicSuffix(_:)`` answers `true` for every domain.
    public var isLoaded: Bool { context != nil }

    deinit {
        if ownsContext, let context { psl_free(context) }
    }

    /// Whether `domain` is a public suffix.
    /// - Parameter domain: A lower-cased domain without leading or trailing dots.
    /// - Returns: `true` for `co.uk`, `github.io`, `com`, and unknown top-level domains; `false` for
    ///   `example.co.uk`.
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let context else { return true }
        return domain.withCString { c_psl_is_public_suffix(context, $0) } != 0
    }
}

extension PublicSuffixList where Self == LibPSLPublicSuffixList {
    /// libpsl's Public Suffix List, loaded once.
    /// - Returns: The list.
    public static func libpsl() -> LibPSLPublicSuffixList { LibPSLPublicSuffixList() }
}
