import FoundationEssentials
import HTTPCore

/// `-w`: text printed to stdout after each transfer, with curl's `%{variable}`s and `\n`, `\r`, `\t` escapes.
///
/// Variables: `http_code` (also `response_code`), `size_download`, `size_upload`, `url_effective`, `url`,
/// `num_redirects`, `content_type`, `time_total`, `exitcode`, `errormsg`. `%%` prints `%`. `@FILE` reads the
/// format from a file.
struct WriteOut: Sendable {
    let format: String

    /// Reads the `-w` argument.
    /// - Throws: ``TransferFailure`` 26 when `@FILE` cannot be read.
    init(argument: String) throws {
        if argument.hasPrefix("@") {
            guard let data = FileManager.default.contents(atPath: String(argument.dropFirst())) else {
                throw TransferFailure(26, "Cannot read the -w file \(argument.dropFirst())")
            }
            format = String(decoding: data, as: UTF8.self)
        } else {
            format = argument
        }
    }

    /// Writes the expansion to stdout; a closed stdout is ignored here (the transfer already reported it).
    func print(_ record: TransferRecord.Snapshot) {
        try? Output.writeStandardOutput(expand(record))
    }

    /// The format with every variable and escape replaced.
    func expand(_ record: TransferRecord.Snapshot) -> String {
        var result = ""
        var rest = Substring(format)
        while let character = rest.first {
            if character == "\\", rest.count >= 2 {
                let next = rest[rest.index(after: rest.startIndex)]
                let escapes: [Character: String] = ["n": "\n", "r": "\r", "t": "\t", "\\": "\\"]
                result += escapes[next] ?? "\\\(next)"
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("%%") {
                result += "%"
                rest = rest.dropFirst(2)
            } else if rest.hasPrefix("%{"), let close = rest.firstIndex(of: "}") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                result += Self.value(of: name, in: record) ?? ""
                rest = rest[rest.index(after: close)...]
            } else {
                result.append(character)
                rest = rest.dropFirst()
            }
        }
        return result
    }

    /// One variable's value, or `nil` for an unknown name.
    static func value(of name: String, in record: TransferRecord.Snapshot) -> String? {
        switch name {
        case "http_code", "response_code": threeDigits(record.statusCode)
        case "http_version": record.version.map { $0.major >= 2 ? "\($0.major)" : "\($0.major).\($0.minor)" } ?? "0"
        case "size_download": "\(record.downloaded)"
        case "size_upload": "\(record.uploaded)"
        case "url_effective": record.effectiveURL.absoluteString
        case "url": record.url.absoluteString
        case "num_redirects": "\(record.redirects)"
        case "content_type": record.contentType ?? ""
        case "time_total": seconds(record.elapsed)
        case "exitcode": "\(record.failure?.exitCode ?? 0)"
        case "errormsg": record.failure?.message ?? ""
        default: nil
        }
    }

    private static func threeDigits(_ code: Int) -> String {
        let text = "\(code)"
        return String(repeating: "0", count: max(0, 3 - text.count)) + text
    }

    /// Seconds with six decimals, as curl prints times.
    private static func seconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let fraction = "\(micros % 1_000_000)"
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
