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
    ///   - bytes: The file's contents (UTF-8; other bytes are replaced).
    ///   - now: The `created` date given to every cookie; their creation order is the reverse of the file's.
    /// - Returns: The cookies (oldest first) and the numbers of malformed lines.
    public static func parse(_ bytes: some Sequence<UInt8>, loadedAt now: Date) -> Contents {
        var contents = Contents(cookies: [], malformedLines: [])
        // Split the bytes, not a String: "\r\n" is one Character, and a CRLF file must still split into lines.
        let lines = Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            let bytes = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            switch parseLine(Substring(String(decoding: bytes, as: UTF8.self)), created: now) {
            case .cookie(let cookie): contents.cookies.append(cookie)
            case .comment: continue
            case .malformed: contents.malformedLines.append(index + 1)
            }
        }
        contents.cookies.reverse()
        return contents
    }

    /// Writes cookies in the format, header first, one line per cookie, newest first as curl writes its jar.
    /// - Parameter cookies: The cookies to write, oldest first (``CookieStorage/allCookies``'s creation order);
    ///   ``parse(_:loadedAt:)`` gives them back in this order.
    /// - Returns: The file's text.
    public static func format(_ cookies: [Cookie]) -> String {
        var text = header + "\n# Written by ASIKit's CookieFile plug-in (curl and wget read this)."
            + " Edit at your own risk.\n\n"
        for cookie in cookies.reversed() {
            text += line(for: cookie) + "\n"
        }
        return text
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

    private static func parseLine(_ line: Substring, created: Date) -> Line {
        var line = line
        var isHTTPOnly = false
        if line.hasPrefix("#HttpOnly_") {
            line = line.dropFirst("#HttpOnly_".count)
            isHTTPOnly = true
        } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            return .comment
        }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 6 || fields.count == 7 else { return .malformed }
        let domain = String(fields[0])  // the cookie lower-cases it and keeps the spelling for writing
        guard !domain.isEmpty, domain != ".", let includeSubdomains = flag(fields[1]), let isSecure = flag(fields[3]),
            fields[2].hasPrefix("/"), let expires = Int64(fields[4]), expires >= 0
        else { return .malformed }
        let name = fields[5]
        let value = fields.count == 7 ? fields[6] : ""
        guard !name.isEmpty, !containsControl(name), !containsControl(value) else { return .malformed }
        return .cookie(Cookie(
            name: String(name), value: String(value), domain: domain,
            isHostOnly: !includeSubdomains && !domain.hasPrefix("."), path: String(fields[2]),
            expires: expires == 0
                ? nil : Date(timeIntervalSince1970: TimeInterval(min(expires, Date.latestCookieFileExpiry))),
            isSecure: isSecure, isHTTPOnly: isHTTPOnly, created: created))
    }

    private static func flag(_ field: Substring) -> Bool? {
        switch field.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }

    private static func containsControl(_ text: Substring) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}
