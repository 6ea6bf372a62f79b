import CloudFiles
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// A failed command: one line for stderr (as `swift` words it), optionally followed by `swift`'s
/// `Failed Transaction ID:` line. Never holds a token or key.
struct CommandFailure: Error {
    /// The message, one line.
    var message: String
    /// Swift's transaction ID, when the server answered.
    var transactionID: String?

    init(_ message: String, transactionID: String? = nil) {
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        self.transactionID = transactionID
    }

    /// Writes the message (and the transaction ID) to stderr.
    func report() {
        var text = message + "\n"
        if let transactionID { text += "Failed Transaction ID: \(transactionID)\n" }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// `Container 'NAME' not found` for a 404, `swift`'s words otherwise.
    static func container(_ error: any Error, _ name: String, method: String, at connection: Connection) -> Self {
        if let error = error as? CloudFilesError, error.status == 404 {
            return CommandFailure("Container '\(name)' not found")
        }
        return failed("Container \(method)", error, url: connection.url(name))
    }

    /// `Object 'C/O' not found` for a 404 when `notFoundLine` (downloads), `swift`'s words otherwise.
    static func object(
        _ error: any Error, _ container: String, _ name: String, method: String, at connection: Connection,
        notFoundLine: Bool = false
    ) -> Self {
        if notFoundLine, let error = error as? CloudFilesError, error.status == 404 {
            return CommandFailure("Object '\(container)/\(name)' not found")
        }
        return failed("Object \(method)", error, url: connection.url(container, name))
    }

    /// `Auth GET failed: URL 401 Unauthorized`.
    static func auth(_ error: any Error, url: String) -> Self {
        if let failure = error as? CommandFailure { return failure }
        return failed("Auth GET", error, url: url)
    }

    /// `WHAT failed: URL STATUS REASON` for an answer, the transport's error otherwise.
    static func failed(_ what: String, _ error: any Error, url: String) -> Self {
        if let failure = error as? CommandFailure { return failure }
        guard let error = error as? CloudFilesError else {
            return CommandFailure("\(what) failed: \(url) \(error)")
        }
        guard error.status != 0 else { return CommandFailure(error.message) }
        return CommandFailure(
            "\(what) failed: \(url) \(error.status) \(reason(error.status))", transactionID: error.transactionID)
    }

    /// The reason phrase of a status, as Swift sends it.
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Request Entity Too Large"
        case 416: "Requested Range Not Satisfiable"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 498: "Rate Limited"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: ""
        }
    }
}
