import Foundation
import S3
import Testing

/// Reads the AWS SigV4 test suites in `../shared/corpora/s3` (or under `ASI_CORPORA_DIR`).
enum SigV4Corpus {
    static let directory: String =
        (ProcessInfo.processInfo.environment["ASI_CORPORA_DIR"].map { URL(filePath: $0) }
        ?? URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appending(path: "../shared/corpora"))
        .appending(path: "s3").standardizedFileURL.path(percentEncoded: false)

    static var isPresent: Bool { FileManager.default.fileExists(atPath: directory) }
    static var isRequired: Bool { ProcessInfo.processInfo.environment["ASI_REQUIRE_PEERS"] == "1" }

    /// 2015-08-30T12:36:00Z, the suites' signing time.
    static let date = Date(timeIntervalSince1970: 1_440_938_160)
    static let credentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")

    /// A raw request from a `.req` or `request.txt` file.
    struct RawRequest {
        var method: String
        var path: String
        var query: String?
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        var input: SigV4Input {
            SigV4Input(
                method: method, path: path, query: query, headerFields: headers,
                payloadHash: SigV4Input.payloadHash(of: body))
        }
    }

    /// Parses a request as the suites write it: the request line (its target may hold spaces), `Name:value` lines
    /// (a line starting with whitespace continues the previous value), a blank line, the body.
    static func parse(_ text: String) -> RawRequest {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst()
        let words = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        let method = String(words.first!)
        let target = words.dropFirst().dropLast().joined(separator: " ")
        var headers: [(name: String, value: String)] = []
        var bodyLines: [String] = []
        var inBody = false
        for line in lines {
            if inBody {
                bodyLines.append(line)
            } else if line.isEmpty {
                inBody = true
            } else if line.first == " " || line.first == "\t" {
                headers[headers.count - 1].value += "\n" + line
            } else if let colon = line.firstIndex(of: ":") {
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        let (path, query) =
            target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) }
            ?? (target, nil)
        return RawRequest(
            method: method, path: path, query: query, headers: headers,
            body: Array(bodyLines.joined(separator: "\n").utf8))
    }

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    /// The query parameters of a signed request's first line, as a sorted list of `name=value` strings.
    static func signedQuery(_ signedRequest: String) -> [String] {
        let line = signedRequest.split(separator: "\n").first.map(String.init) ?? ""
        let target = line.split(separator: " ").dropFirst().dropLast().joined(separator: " ")
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return target[target.index(after: mark)...].split(separator: "&").map(String.init).sorted()
    }
}
