import HTTPCore

/// The cookie file's operations: HTTPCore's shared locked-file code with the cookie file's names and limit.
///
/// The lock is an exclusive `flock` on the folder that holds the file, not on the file: the file is replaced by
/// `rename` on every write, and a lock on the old inode would not stop a second writer who opened the new one.
enum CookieFileIO {
    /// The largest cookie file read: 3,000 cookies of 4 KiB each, with room to spare.
    static let maxFileBytes = 32 * 1024 * 1024

    /// The operations on the cookie file at `path`.
    static func file(at path: String, beforeRename: (@Sendable () -> Void)?) -> SharedFileIO {
        SharedFileIO(path: path, noun: "cookie file", stage: .cookies, maxFileBytes: maxFileBytes,
                     temporaryPrefix: ".cookies", beforeRename: beforeRename)
    }
}
