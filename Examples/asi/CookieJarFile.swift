import FoundationEssentials
import HTTPCore

/// Cookie files in the Netscape format that curl reads with `-b FILE` and writes with `-c FILE`: one cookie per
/// line, `domain`, `include-subdomains`, `path`, `secure`, `expires` (Unix seconds, 0 for a session cookie),
/// `name` and `value`, separated by tabs; `#HttpOnly_` before the domain marks an HttpOnly cookie.
enum CookieJarFile {
    /// The cookies in a file; lines that do not parse are skipped, and a missing file has none (as in curl).
    static func read(_ path: String) -> [Cookie] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap(parse)
    }

    /// Writes the cookies to `path` (`-` for stdout).
    /// - Throws: ``TransferFailure`` 23 when the file cannot be written.
    static func write(_ cookies: [Cookie], to path: String) throws(TransferFailure) {
        var text = "# Netscape HTTP Cookie File\n# Written by asi (ASIKit). Edit at your own risk.\n\n"
        let sorted = cookies.sorted { ($0.domain, $0.path, $0.name) < ($1.domain, $1.path, $1.name) }
        for cookie in sorted {
            let domain = (cookie.isHTTPOnly ? "#HttpOnly_" : "") + (cookie.isHostOnly ? "" : ".") + cookie.domain
            let expires = cookie.expires.map { Int64($0.timeIntervalSince1970) } ?? 0
            let fields = [
                domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE",
                "\(expires)", cookie.name, cookie.value,
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        if path == "-" {
            try Output.writeStandardOutput(text)
        } else {
            try Output.replaceFile(path, with: Array(text.utf8))
        }
    }

    private static func parse(_ line: Substring) -> Cookie? {
        var line = line
        var httpOnly = false
        if line.hasPrefix("#HttpOnly_") {
            line = line.dropFirst("#HttpOnly_".count)
            httpOnly = true
        } else if line.hasPrefix("#") {
            return nil
        }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 7, let expires = Int64(fields[4]) else { return nil }
        return Cookie(
            name: String(fields[5]), value: String(fields[6]), domain: String(fields[0]),
            isHostOnly: fields[1] != "TRUE", path: String(fields[2]),
            expires: expires == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(expires)),
            isSecure: fields[3] == "TRUE", isHTTPOnly: httpOnly)
    }
}
