import FoundationEssentials

/// File-name extension to media type, from the system's `/etc/mime.types` (Debian's `media-types` package) with
/// a built-in table for the common types when that file is missing (ASIHTTPRequest's `mimeTypeForFileAtPath:`).
enum MIMETypes {
    /// The table read once from `/etc/mime.types`, over the built-in one.
    static let table: [String: String] = {
        var table = builtIn
        if let data = FileManager.default.contents(atPath: "/etc/mime.types") {
            table.merge(parse(String(decoding: data, as: UTF8.self))) { _, system in system }
        }
        return table
    }()

    /// The media type for a path's extension, or `application/octet-stream`.
    static func type(forPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return table[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }

    /// Parses `mime.types` lines: `type ext ext ...`, `#` comments.
    static func parse(_ text: String) -> [String: String] {
        var table: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let content = line.prefix { $0 != "#" }
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2, words[0].contains("/") else { continue }
            for word in words.dropFirst() where table[word.lowercased()] == nil {
                table[word.lowercased()] = String(words[0])
            }
        }
        return table
    }

    static let builtIn: [String: String] = [
        "txt": "text/plain", "html": "text/html", "htm": "text/html", "css": "text/css", "csv": "text/csv",
        "xml": "application/xml", "js": "text/javascript", "json": "application/json", "pdf": "application/pdf",
        "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
        "webp": "image/webp", "ico": "image/vnd.microsoft.icon", "mp3": "audio/mpeg", "wav": "audio/wav",
        "mp4": "video/mp4", "mov": "video/quicktime", "bin": "application/octet-stream",
    ]
}
