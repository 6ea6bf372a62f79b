import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing

/// `ClientResponse.text()` on bodies a real nginx serves without a charset: JSON is UTF-8 by definition (RFC 8259),
/// XML says its encoding in its declaration (RFC 7303), and `text/plain` keeps ASIHTTPRequest's ISO-8859-1.
@Suite("text() against nginx", .enabled(if: NginxPeer.shouldRun))
struct ResponseTextNginxTests {
    @Test func charsetlessJSONIsDecodedAsUTF8() async throws {
        try await withNginx { nginx in
            let client = Client(transport: .posix())
            let response = try await client.send(testRequest(nginx.url("/cafe.json")))
            try await client.shutdown()
            #expect(response.headerFields[.contentType] == "application/json", "nginx names no charset")
            #expect(response.text() == #"{"name":"café"}"#)
        }
    }

    @Test func charsetlessXMLFollowsItsDeclaration() async throws {
        try await withNginx { nginx in
            let client = Client(transport: .posix())
            let response = try await client.send(testRequest(nginx.url("/cafe-latin1.xml")))
            try await client.shutdown()
            #expect(response.headerFields[.contentType] == "application/xml")
            #expect(response.text().hasSuffix("<name>café</name>"))
        }
    }

    @Test func charsetlessPlainTextKeepsTheLatin1Default() async throws {
        try await withNginx { nginx in
            let client = Client(transport: .posix())
            let response = try await client.send(testRequest(nginx.url("/cafe.json")))
            try await client.shutdown()
            var relabelled = response
            relabelled.head.headerFields[.contentType] = "text/plain"
            #expect(relabelled.text() == #"{"name":"cafÃ©"}"#, "text/plain without a charset is ISO-8859-1")
            #expect(relabelled.text(defaultEncoding: .utf8) == #"{"name":"café"}"#)
        }
    }
}
