import HTTPCore

/// The HSTS file's operations: HTTPCore's shared locked-file code (also the CookieFile plug-in's) with the HSTS
/// file's names and limit.
enum HSTSFileIO {
    /// The largest HSTS file read: 10,000 hosts (``HSTSStorage``'s limit) of curl's longest line, with room to
    /// spare.
    static let maxFileBytes = 8 * 1024 * 1024

    /// The operations on the HSTS file at `path`.
    static func file(at path: String, beforeRename: (@Sendable () -> Void)?) -> SharedFileIO {
        SharedFileIO(path: path, noun: "HSTS file", stage: .hsts, maxFileBytes: maxFileBytes,
                     temporaryPrefix: ".hsts", beforeRename: beforeRename)
    }
}
