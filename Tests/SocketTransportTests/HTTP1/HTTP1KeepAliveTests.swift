import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// Connection reuse: HTTP/1.0 and 1.1 × `Connection` close, keep-alive or absent × `Keep-Alive` parameters.
struct HTTP1KeepAliveTests {
    typealias Head = ParsedItem.Head

    struct KeepAliveCase: CustomTestStringConvertible, Sendable {
        var version: String
        var connection: String?
        var keepAlive: String?
        var expected: Bool
        var timeout: Int? = nil
        var max: Int? = nil
        var testDescription: String {
            "\(version) Connection: \(connection ?? "-") Keep-Alive: \(keepAlive ?? "-")"
        }
    }

    static let keepAliveTable: [KeepAliveCase] = [
        KeepAliveCase(version: "1.1", connection: nil, keepAlive: nil, expected: true),
        KeepAliveCase(version: "1.1", connection: "close", keepAlive: nil, expected: false),
        KeepAliveCase(version: "1.1", connection: "Close", keepAlive: nil, expected: false),
        KeepAliveCase(version: "1.1", connection: "keep-alive", keepAlive: nil, expected: true),
        KeepAliveCase(version: "1.1", connection: "Upgrade, close", keepAlive: nil, expected: false),
        KeepAliveCase(version: "1.1", connection: "keep-alive, close", keepAlive: nil, expected: false),
        KeepAliveCase(
            version: "1.1", connection: nil, keepAlive: "timeout=5, max=100", expected: true,
            timeout: 5, max: 100),
        KeepAliveCase(
            version: "1.1", connection: "close", keepAlive: "timeout=5, max=100", expected: false,
            timeout: 5, max: 100),
        KeepAliveCase(
            version: "1.1", connection: "keep-alive", keepAlive: "timeout=15", expected: true,
            timeout: 15),
        KeepAliveCase(
            version: "1.1", connection: nil, keepAlive: "timeout=5, max=5", expected: false,
            timeout: 5, max: 5),
        KeepAliveCase(version: "1.1", connection: nil, keepAlive: "max=6", expected: true, max: 6),
        KeepAliveCase(
            version: "1.1", connection: nil, keepAlive: "MAX = 1 , Timeout=\"30\"", expected: false,
            timeout: 30, max: 1),
        KeepAliveCase(version: "1.1", connection: nil, keepAlive: "timeout=abc, max=", expected: true),
        KeepAliveCase(version: "1.0", connection: nil, keepAlive: nil, expected: false),
        KeepAliveCase(version: "1.0", connection: "close", keepAlive: nil, expected: false),
        KeepAliveCase(version: "1.0", connection: "keep-alive", keepAlive: nil, expected: true),
        KeepAliveCase(
            version: "1.0", connection: "Keep-Alive", keepAlive: "timeout=5, max=100", expected: true,
            timeout: 5, max: 100),
        KeepAliveCase(
            version: "1.0", connection: nil, keepAlive: "timeout=5, max=100", expected: false,
            timeout: 5, max: 100),
        KeepAliveCase(
            version: "1.0", connection: "close", keepAlive: "timeout=5, max=100", expected: false,
            timeout: 5, max: 100),
        KeepAliveCase(
            version: "1.0", connection: "keep-alive", keepAlive: "timeout=5, max=3", expected: false,
            timeout: 5, max: 3),
    ]

    @Test(arguments: keepAliveTable)
    func keepAliveDecision(_ test: KeepAliveCase) {
        var input = "HTTP/\(test.version) 200 OK\r\n"
        var fields: [String] = []
        if let connection = test.connection { fields.append("Connection: \(connection)") }
        if let keepAlive = test.keepAlive { fields.append("Keep-Alive: \(keepAlive)") }
        fields.append("Content-Length: 0")
        input += fields.map { $0 + "\r\n" }.joined() + "\r\n"
        let expectedHead = Head(
            version: "HTTP/\(test.version)", fields: fields, framing: .contentLength(0), keepAlive: test.expected,
            keepAliveTimeout: test.timeout, keepAliveMax: test.max)
        #expect(ParserDriver().runAllSplits(input) == [.head(expectedHead), .end(trailers: nil)])
    }
}
