import FoundationEssentials
import HTTPCore
import HTTPTesting

extension Request {
    init(_ string: String) {
        self.init(url: URL(string: string)!)
    }
}

/// A transport that answers each GET with as many bytes as its last path component says, reporting the download
/// in `chunk`-byte steps as a real transport does (cumulative counts, the length announced).
func progressTransport(
    chunk: Int, answer: @escaping @Sendable (Request) -> (status: Int, fields: HTTPFields, body: [UInt8], sendsLength: Bool)
) -> ScriptedTransport {
    ScriptedTransport { request, context in
        let (status, fields, body, sendsLength) = answer(request)
        var headerFields = fields
        if sendsLength { headerFields[.contentLength] = "\(body.count)" }
        var received = 0
        while received < body.count {
            received = min(body.count, received + chunk)
            context.progress?.receive(
                ProgressEvent(
                    requestID: context.requestID, direction: .download, completedBytes: Int64(received),
                    expectedBytes: sendsLength ? Int64(body.count) : nil))
        }
        return Response(
            status: HTTPResponse.Status(code: status), headerFields: headerFields,
            body: ResponseBody(
                expectedLength: sendsLength ? Int64(body.count) : nil,
                source: BufferedBodySource(body.isEmpty ? [] : [body])))
    }
}
