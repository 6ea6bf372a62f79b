public import HTTPCore

extension ScriptedTransport {
    /// A transport that reports progress the way a real one does: the request body's upload and the response's
    /// download in `chunk`-byte steps, with cumulative counts per attempt and the length when it is announced.
    /// - Parameters:
    ///   - chunk: The step, in bytes.
    ///   - answer: The status, fields and body for a request, and whether a `Content-Length` is sent.
    /// - Returns: The transport (a `HEAD` gets the fields and no body).
    public static func reportingProgress(
        chunk: Int = 100,
        answer: @escaping @Sendable (Request) -> (status: Int, fields: HTTPFields, body: [UInt8], sendsLength: Bool)
    ) -> ScriptedTransport {
        ScriptedTransport { request, context in
            if let length = request.body?.length, length > 0 {
                var sent: Int64 = 0
                while sent < length {
                    sent = min(length, sent + Int64(chunk))
                    context.progress?.receive(
                        ProgressEvent(
                            requestID: context.requestID, direction: .upload,
                            completedBytes: sent, expectedBytes: length))
                }
            }
            let (status, fields, body, sendsLength) = answer(request)
            var headerFields = fields
            if sendsLength { headerFields[.contentLength] = "\(body.count)" }
            if request.method != .head {
                var received = 0
                while received < body.count {
                    received = min(body.count, received + chunk)
                    context.progress?.receive(
                        ProgressEvent(
                            requestID: context.requestID, direction: .download, completedBytes: Int64(received),
                            expectedBytes: sendsLength ? Int64(body.count) : nil))
                }
            }
            return Response(
                status: HTTPResponse.Status(code: status), headerFields: headerFields,
                body: request.method == .head
                    ? .empty
                    : ResponseBody(
                        expectedLength: sendsLength ? Int64(body.count) : nil,
                        source: BufferedBodySource(body.isEmpty ? [] : [body])))
        }
    }
}
