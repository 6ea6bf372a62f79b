public import HTTPCore
public import Logging

extension CookieFileStore {
    /// Settings for a ``CookieFileStore``.
    public struct Configuration: Sendable {
        /// Whether session cookies (no expiry) are written to the file too, with expiry `0`, as curl's `-c`
        /// does. Default `false`: they end with the process, as RFC 6265 §5.3 asks.
        public var keepsSessionCookies: Bool
        /// Whether session cookies found in the file are loaded. Default `true`; `false` is curl's
        /// `-j/--junk-session-cookies` (start a new session).
        public var loadsSessionCookies: Bool
        /// The size and count limits; browsers' by default.
        public var limits: CookieStorage.Limits
        /// Where skipped lines of the file are reported, as warnings (line numbers only, never contents).
        public var logger: Logger
        /// Called after the temporary file is written and synced, before the rename; for crash tests only.
        package var beforeRename: (@Sendable () -> Void)?

        /// Creates settings.
        /// - Parameters:
        ///   - keepsSessionCookies: Whether session cookies are written; `false` by default.
        ///   - loadsSessionCookies: Whether session cookies in the file are loaded; `true` by default.
        ///   - limits: The size and count limits; browsers' by default.
        ///   - logger: Where malformed lines are reported; discarded by default.
        public init(
            keepsSessionCookies: Bool = false,
            loadsSessionCookies: Bool = true,
            limits: CookieStorage.Limits = .standard,
            logger: Logger = Logger(label: "asikit.cookiefile", factory: { _ in SwiftLogNoOpLogHandler() })
        ) {
            self.keepsSessionCookies = keepsSessionCookies
            self.loadsSessionCookies = loadsSessionCookies
            self.limits = limits
            self.logger = logger
        }
    }
}
