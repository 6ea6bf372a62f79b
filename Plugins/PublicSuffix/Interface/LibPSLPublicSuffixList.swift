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
/// libpsl is opened at run time (`libpsl.so.5`, Debian's `libpsl5`, which curl and wget depend on), not linked:
/// building this plug-in needs no `libpsl-dev` (decision 0023).
///
/// ```swift
/// let client = Client(transport: .posix(), configuration: .init(publicSuffixes: .libpsl()))
/// ```
public final class LibPSLPublicSuffixList: PublicSuffixList {
    /// libpsl's functions, loaded on first use; `nil` when the system has no `libpsl.so.5`.
    static let library: c_libpsl_functions? = {
        let functions = c_libpsl_load()
        return functions.isPublicSuffix == nil ? nil : functions
    }()

    /// libpsl's context: read-only once loaded, and libpsl's lookups are safe from many threads at once.
    private nonisolated(unsafe) let context: UnsafeRawPointer?
    /// Whether `context` came from `psl_latest` and is freed with the value (the built-in one is static).
    private let ownsContext: Bool

    /// Loads the list.
    ///
    /// Uses the newer of the built-in list and the system's file. When neither loads (a libpsl built without data
    /// and no file) or the system has no libpsl, every domain is reported as a suffix, so cookies with a `Domain`
    /// attribute are refused rather than accepted for everyone; ``isLoaded`` tells.
    public init() {
        guard let library = Self.library else {
            context = nil
            ownsContext = false
            return
        }
        if let latest = library.latest?(nil) {
            context = UnsafeRawPointer(latest)
            ownsContext = true
        } else {
            context = library.builtin?()  // static, or nil when libpsl was built without data
            ownsContext = false
        }
    }

    /// Whether a list was loaded; when `false`, ``isPublicSuffix(_:)`` answers `true` for every domain.
    public var isLoaded: Bool { context != nil }

    deinit {
        if ownsContext, let context, let free = Self.library?.free { free(UnsafeMutableRawPointer(mutating: context)) }
    }

    /// Whether `domain` is a public suffix.
    /// - Parameter domain: A lower-cased domain without leading or trailing dots.
    /// - Returns: `true` for `co.uk`, `github.io`, `com`, and unknown top-level domains; `false` for
    ///   `example.co.uk`.
    public func isPublicSuffix(_ domain: String) -> Bool {
        guard let context, let isPublicSuffix = Self.library?.isPublicSuffix else { return true }
        return domain.withCString { isPublicSuffix(context, $0, Int32(C_PSL_TYPE_ANY)) } != 0
    }
}

extension PublicSuffixList where Self == LibPSLPublicSuffixList {
    /// libpsl's Public Suffix List, loaded once.
    /// - Returns: The list.
    public static func libpsl() -> LibPSLPublicSuffixList { LibPSLPublicSuffixList() }
}
