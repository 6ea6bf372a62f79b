import FoundationEssentials
import HTTPTesting

/// A loopback stand-in for httpbin's `/anything`: answers with the request's method, URL, JSON body and
/// header fields as JSON.
enum EchoServer {
    static func start() throws -> LoopbackServer {
        try LoopbackServer { request in
            let headers = request.headers.map { "\(quoted($0.name)): \(quoted($0.value))" }.joined(separator: ", ")
            let url = "http://\(request.header("Host") ?? "127.0.0.1")\(request.target)"
            let body = """
                {"method": \(quoted(request.method)), "url": \(quoted(url)), \
                "json": \(String(decoding: request.body, as: UTF8.self)), "headers": {\(headers)}}
                """
            return .status(200, headers: [("Content-Type", "application/json")], body: Array(body.utf8))
        }
    }

    /// A JSON string literal for simple text (no control characters).
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }
}
