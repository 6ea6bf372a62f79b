import HTTPCore

/// Turns failing answers into ``CloudFilesError``.
enum CloudFilesResponses {
    /// The error for a failing answer: its status, the body's text (trimmed, at most 512 bytes) and the transaction ID.
    static func error(status: Int, fields: HTTPFields, body: [UInt8]) -> CloudFilesError {
        var text = String(decoding: body.prefix(512), as: UTF8.self)
        if text.contains("<") { text = stripTags(text) }
        text = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
            .joined(separator: " ")
        let id = fields[HTTPField.Name("X-Trans-Id")!] ?? fields[HTTPField.Name("X-Openstack-Request-Id")!]
        return CloudFilesError(
            code: CloudFilesError.code(forStatus: status), status: status, message: text, transactionID: id)
    }

    /// Swift's HTML error pages (`<html><h1>Not Found</h1><p>…</p></html>`) as text.
    private static func stripTags(_ html: String) -> String {
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" {
                inTag = true
                out.append(" ")
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                out.append(character)
            }
        }
        return out.split(separator: " ").joined(separator: " ")
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
