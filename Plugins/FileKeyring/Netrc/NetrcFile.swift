public import HTTPCore

/// A parsed `.netrc` file, with curl's rules (curl's `lib/netrc.c`, its tests 478–486, 679–685, 792, 793, 1304,
/// 1672, 2005):
///
/// - Tokens are separated by white space. `machine NAME` starts an entry for a host (compared without case),
///   `default` an entry for every host; `login NAME` and `password VALUE` fill the current entry (a later one of
///   the same kind wins); `account VALUE` and unknown words are skipped; `macdef NAME` skips the lines after it up
///   to the next empty line.
/// - A token may be quoted: `"user one"`; inside quotes `\n`, `\r` and `\t` are a line feed, carriage return and
///   tab, and a backslash before any other character is that character. A quote left open is a syntax error.
/// - An unquoted token starting with `#` ends the line (a comment).
/// - A NUL byte ends its line: what follows it on that line is ignored.
///
/// Lookup (``credential(forHost:user:)``): the first entry for the host (or `default`) that fits wins. Without a
/// user, an entry fits when it has a login or a password; with a user (from the URL), an entry fits when its login
/// is that user or it has no login, and it has a password. Nothing here is ever written.
public struct NetrcFile: Sendable, CustomStringConvertible {
    /// One `machine` or `default` entry. Its `description` never shows the password.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// The host, lower-cased; `nil` for `default`.
        public var machine: String?
        /// The login, if the entry has one.
        public var login: String?
        /// The password, if the entry has one.
        public var password: String?

        /// Creates an entry.
        /// - Parameters:
        ///   - machine: The host, or `nil` for `default`.
        ///   - login: The login.
        ///   - password: The password.
        public init(machine: String?, login: String? = nil, password: String? = nil) {
            self.machine = machine?.lowercased()
            self.login = login
            self.password = password
        }

        /// `machine HOST login USER password <redacted>`.
        public var description: String {
            (machine.map { "machine \($0)" } ?? "default") + (login.map { " login \($0)" } ?? "")
                + (password == nil ? "" : " password <redacted>")
        }
    }

    /// A `.netrc` that cannot be parsed; the message names the line, never a value from it.
    public struct SyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line number.
        public var line: Int
        /// What is wrong.
        public var message: String
        /// Creates an error.
        /// - Parameters:
        ///   - line: The 1-based line number.
        ///   - message: What is wrong, without values from the file.
        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }

        /// `.netrc line N: message`.
        public var description: String { ".netrc line \(line): \(message)" }
    }

    /// The entries, in file order.
    public var entries: [Entry]

    /// Creates a file from entries.
    /// - Parameter entries: The entries, in the order they are searched.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses the bytes of a `.netrc` file.
    /// - Parameter bytes: The file's contents.
    /// - Throws: ``SyntaxError`` for a quote left open.
    public init(parsing bytes: some Collection<UInt8>) throws(SyntaxError) {
        entries = try NetrcParser.parse(Array(bytes))
    }

    /// The credential for a host: the first entry that fits (see the type's discussion).
    /// - Parameters:
    ///   - host: The URL's host.
    ///   - user: The user named in the URL, if any; it picks among several accounts for one host.
    /// - Returns: The credential, with an empty string for a missing login or password, or `nil`.
    public func credential(forHost host: String, user: String? = nil) -> Credential? {
        let host = host.lowercased()
        for entry in entries where entry.machine == nil || entry.machine == host {
            if let user {
                if entry.login == nil || entry.login == user, let password = entry.password {
                    return Credential(user: user, password: password)
                }
            } else if entry.login != nil || entry.password != nil {
                return Credential(user: entry.login ?? "", password: entry.password ?? "")
            }
        }
        return nil
    }

    /// How many entries there are, never their contents.
    public var description: String { "NetrcFile(\(entries.count) entries)" }
}
