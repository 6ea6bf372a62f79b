public import FoundationEssentials
public import HTTPCore

/// The Netscape `cookies.txt` format that curl writes with `-c` and reads with `-b`, and wget with
/// `--save-cookies`/`--load-cookies`.
///
/// The file starts with `# Netscape HTTP Cookie File`; each cookie is one line of seven tab-separated fields:
/// domain (a leading `.` for a domain cookie), `TRUE` when subdomains match, path, `TRUE` for a secure cookie,
/// expiry in Unix seconds (`0` for a session cookie), name and value. `#HttpOnly_` before the domain marks an
/// HttpOnly cookie. Other lines starting with `#`, and empty lines, are comments. A line of six fields is a cookie
/// with an empty value, as curl reads it.
///
/// What is read is what is written back, byte for byte: a line is a cookie only when each field is valid UTF-8
/// without control characters (U+0000–U+001F, U+007F) and the line that ``line(for:)`` writes for its cookie reads
/// back as the same cookie; any other line is malformed (counted in ``Contents/malformedLines``). curl keeps such
/// bytes as they are; a ``Cookie`` holds text, so a line with bytes that are not UTF-8 is refused rather than
/// changed (RFC 6265 §4.1.1 allows only US-ASCII in cookies, and §5.4 warns that the octets need not be UTF-8).
/// ``format(_:)`` writes only cookies that read back unchanged (``canWrite(_:)``).
public enum NetscapeCookieFile {
    /// The first line curl, wget and Python's `MozillaCookieJar` look for.
    public static let header = "# Netscape HTTP Cookie File"

    /// What ``parse(_:loadedAt:)`` made of a file: the cookies, and the lines it skipped.
    public struct Contents: Sendable {
        /// The cookies oldest first, each with the `created` date passed to ``parse(_:loadedAt:)``: the file
        /// lists the newest first (curl writes its jar so, and ``format(_:)`` too), so its last line comes first.
        public var cookies: [Cookie]
        /// The 1-based numbers of lines that were neither a comment nor a cookie.
        public var malformedLines: [Int]
    }

    /// Parses a file's bytes. A line that does not parse is skipped and reported, never a failure of the file.
    /// - Parameters:
    ///   - bytes: The file's contents. A line whose fields are not valid UTF-8 is malformed, not repaired.
    ///   - now: The `created` date given to every cookie; their creation order is the reverse of the file's.
    /// - Returns: The cookies (oldest first) and the numbers of malformed lines.
    public static func parse(_ bytes: some Sequence<UInt8>, loadedAt now: Date) -> Contents {
        var contents = Contents(cookies: [], malformedLines: [])
        // Lines and fields are split on bytes, never on Characters: "\r\n" is one Character, and a field that
        // starts with a combining mark would join the "." or "_" written before it.
        let lines = Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let line = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            switch parseLine(line, created: now) {
            case .cookie(let cookie) where canWrite(cookie): contents.cookies.append(cookie)
            case .comment: continue
            case .cookie, .malformed: contents.malformedLines.append(index + 1)
            }
        }
        contents.cookies.reverse()
        return contents
    }

    /// Writes cookies in the format, header first, one line per cookie, newest first as curl writes its jar.
    ///
    /// A cookie for which ``canWrite(_:)`` is false is left out: its line would read back as another cookie, as
    /// several, or as none (a tab or newline in a field, a name or domain the format cannot hold).
    /// - Parameter cookies: The cookies to write, oldest first (``CookieStorage/allCookies``'s creation order);
    ///   ``parse(_:loadedAt:)`` gives them back in this order.
    /// - Returns: The file's text.
    public static func format(_ cookies: [Cookie]) -> String {
        var text = header + "\n# Written by ASIKit's CookieFile plug-in (curl and wget read this)."
            + " Edit at your own risk.\n\n"
        for cookie in cookies.reversed() where canWrite(cookie) {
            text += line(for: cookie) + "\n"
        }
        return text
    }

    /// Whether a cookie survives the format: its ``line(for:)`` reads back as a cookie whose line is the same bytes.
    ///
    /// False for a control character (a tab and a newline included) in any field, an empty name, a path not
    /// starting with `/`, and a domain the line cannot spell (empty, starting with `#` without HttpOnly, or with
    /// a combining mark that would join the `.` written before it).
    /// - Parameter cookie: The cookie.
    /// - Returns: Whether ``format(_:)`` writes it.
    public static func canWrite(_ cookie: Cookie) -> Bool {
        let written = Array(line(for: cookie).utf8)
        guard case .cookie(let again) = parseLine(written[...], created: cookie.created) else { return false }
        return Array(line(for: again).utf8) == written
    }

    /// One cookie's line, without the newline.
    /// - Parameter cookie: The cookie.
    /// - Returns: The seven tab-separated fields, with `#HttpOnly_` for an HttpOnly cookie.
    public static func line(for cookie: Cookie) -> String {
        let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.spelledDomain
        let expires = cookie.expires.map { max(1, $0.cookieFileSeconds) } ?? 0
        return [
            domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE",
            String(expires), cookie.name, cookie.value,
        ].joined(separator: "\t")
    }

    private enum Line {
        case cookie(Cookie)
        case comment
        case malformed
    }

    private static let httpOnlyPrefix = Array("#HttpOnly_".utf8)

    private static func parseLine(_ line: ArraySlice<UInt8>, created: Date) -> Line {
        var line = line
        var isHTTPOnly = false
        if line.starts(with: httpOnlyPrefix) {
            line = line.dropFirst(httpOnlyPrefix.count)
            isHTTPOnly = true
        } else if line.first == UInt8(ascii: "#") || line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return .comment
        }
        let rawFields = line.split(separator: 0x09, omittingEmptySubsequences: false)
        guard rawFields.count == 6 || rawFields.count == 7 else { return .malformed }
        // Strict UTF-8 and no control bytes: a replaced or dropped byte would be written back as another byte.
        var fields: [String] = []
        for field in rawFields {
            guard !field.contains(where: { $0 < 0x20 || $0 == 0x7F }),
                let text = String(validating: field, as: UTF8.self)
            else { return .malformed }
            fields.append(text)
        }
        let domain = fields[0]  // the cookie lower-cases it and keeps the spelling for writing
        guard !domain.isEmpty, domain != ".", let includeSubdomains = flag(fields[1]), let isSecure = flag(fields[3]),
            fields[2].hasPrefix("/"), let expires = Int64(fields[4]), expires >= 0
        else { return .malformed }
        let name = fields[5]
        let value = fields.count == 7 ? fields[6] : ""
        guard !name.isEmpty else { return .malformed }
        return .cookie(Cookie(
            name: name, value: value, domain: domain,
            isHostOnly: !includeSubdomains && !domain.hasPrefix("."), path: fields[2],
            expires: expires == 0
                ? nil : Date(timeIntervalSince1970: TimeInterval(min(expires, Date.latestCookieFileExpiry))),
            isSecure: isSecure, isHTTPOnly: isHTTPOnly, created: created))
    }

    private static func flag(_ field: String) -> Bool? {
        switch field.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }
}
