import Glibc

extension NetrcFile {
    /// Where curl looks for the file: `$NETRC` when set and not empty (curl 7.84 and later), else `$HOME/.netrc`
    /// (the password database's home directory when `HOME` is unset).
    /// - Parameter environment: The environment to read (the process's by default).
    /// - Returns: The path, or `nil` when no home directory is known.
    public static func defaultPath(environment: [String: String]? = nil) -> String? {
        func value(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let path = value("NETRC"), !path.isEmpty { return path }
        if let home = value("HOME"), !home.isEmpty { return home + "/.netrc" }
        guard environment == nil, let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else {
            return nil
        }
        return String(cString: directory) + "/.netrc"
    }

    /// Reads and parses a file.
    /// - Parameter path: The file's path.
    /// - Returns: The parsed file, or `nil` when it does not exist.
    /// - Throws: ``SyntaxError`` for a malformed file, or ``KeyringError`` with ``KeyringError/Code/fileSystem``
    ///   when it exists but cannot be read.
    public static func load(path: String) throws -> NetrcFile? {
        guard let bytes = try KeyringFile(path: path, writeHook: nil).read(followingLinks: true) else { return nil }
        return try NetrcFile(parsing: bytes)
    }
}
