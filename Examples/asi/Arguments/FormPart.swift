import FoundationEssentials
import HTTPPipeline

/// Parses curl's `-F` arguments into a multipart form.
enum FormPart {
    /// Adds `name=value`, `name=@FILE[;type=TYPE][;filename=NAME]` or `name=<FILE` to `form`.
    /// - Throws: `ClientError` (`storageFailed`) when a file is missing.
    static func add(_ argument: String, to form: inout FormData) throws {
        guard let equals = argument.firstIndex(of: "=") else {
            form.add("", forKey: argument)
            return
        }
        let name = String(argument[..<equals])
        let rest = argument[argument.index(after: equals)...]
        if rest.hasPrefix("@") {
            let fields = rest.dropFirst().split(separator: ";", omittingEmptySubsequences: false)
            let path = String(fields.first ?? "")
            var type: String?
            var fileName: String?
            for parameter in fields.dropFirst() {
                let trimmed = trimmed(parameter)
                if trimmed.hasPrefix("type=") { type = String(trimmed.dropFirst(5)) }
                if trimmed.hasPrefix("filename=") { fileName = String(trimmed.dropFirst(9)) }
            }
            try form.addFile(atPath: path, fileName: fileName, contentType: type, forKey: name)
        } else if rest.hasPrefix("<") {
            let bytes = try RequestBuilder.contents("@" + rest.dropFirst())
            form.add(String(decoding: bytes, as: UTF8.self), forKey: name)
        } else {
            form.add(String(rest), forKey: name)
        }
    }

    /// The text without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
