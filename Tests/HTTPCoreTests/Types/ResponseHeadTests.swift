import FoundationEssentials
import HTTPCore
import Testing

/// A response carries one head: the status, reason phrase, fields and version it was made with reach every reader
/// of ``Response`` and of the head's `HTTPResponse` unchanged, and writes through the response land in that head.
@Suite struct ResponseHeadTests {
    @Test func theResponseForwardsToItsOneHead() {
        var fields = HTTPFields()
        fields[.contentType] = "text/plain"
        var response = Response(
            status: HTTPResponse.Status(code: 299, reasonPhrase: "Odd But Fine"), version: .http1_0,
            headerFields: fields)
        #expect(response.head.response.status.reasonPhrase == "Odd But Fine")
        #expect(response.head.response.headerFields[.contentType] == "text/plain")
        #expect(response.statusLine == "HTTP/1.0 299 Odd But Fine")
        #expect(response.head.url == nil)

        response.headerFields[.eTag] = "\"1\""
        response.status = .notFound
        response.version = .http1_1
        #expect(response.head.response.headerFields[.eTag] == "\"1\"")
        #expect(response.head.response.status == .notFound && response.head.version == .http1_1)
        #expect(response.head.statusLine == "HTTP/1.1 404 Not Found")
    }

    @Test func aHeadMadeAroundAnHTTPResponseKeepsIt() {
        let wire = HTTPResponse(status: .init(code: 200, reasonPhrase: "Fine"), headerFields: [.server: "x"])
        let url = URL(string: "http://a.example/p")!
        let head = ResponseHead(wire, version: .http1_1, url: url)
        #expect(head.response == wire)
        #expect(head.status.reasonPhrase == "Fine" && head.headerFields[.server] == "x" && head.url == url)
        let response = Response(head: head, connectionID: 7)
        #expect(response.head.response == wire && response.connectionID == 7 && response.head.url == url)
    }
}
