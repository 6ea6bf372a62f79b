import HTTPCore

/// Reads a final response's body the way the request asks: handed to a data callback, saved to a file, or
/// collected in memory, inflated at the end (the compressed bytes kept) or as it arrives.
struct ResponseReader {
    let client: Client
    let onData: (@Sendable ([UInt8]) -> Void)?

    func read(_ response: StreamingResponse) async throws -> ClientResponse {
        let request = response.info.finalRequest
        let codecs = client.codecs
        let decodable = ContentCoding.isDecodable(response.head, method: request.method, codecs: codecs)
        let onTheFly = decodable && !request.options.inflatesWhenComplete
        let maxBodySize = client.configuration.maxBodySize
        func decoder() throws -> any ContentDecoder {
            try codecStaged { try ContentCoding.makeDecoder(for: response.head.headerFields, codecs: codecs) }
        }

        if let onData {
            let body = onTheFly ? response.body.decoded(with: try decoder()) : response.body
            try await staged(.transport) {
                for try await chunk in body { onData(chunk) }
            }
            return ClientResponse(head: response.head, body: [], info: response.info)
        }
        if let download = request.options.download {
            let body = try await FileDownload(
                options: download, request: request, codecs: codecs,
                maxBodySize: maxBodySize
            ).receive(response)
            return ClientResponse(head: response.head, body: body, info: response.info)
        }
        if onTheFly {
            let body = response.body.decoded(with: try decoder())
            let bytes = try await staged(.transport) { try await body.collect(upTo: maxBodySize) }
            return ClientResponse(head: response.head, body: bytes, info: response.info)
        }
        let raw = try await staged(.transport) { try await response.body.collect(upTo: maxBodySize) }
        guard decodable else { return ClientResponse(head: response.head, body: raw, info: response.info) }
        let decoded = try codecStaged {
            let decoder = try decoder()
            return try decoder.decode(raw) + decoder.finish()
        }
        guard decoded.count <= maxBodySize else {
            throw ClientError(
                .protocolViolation, stage: .codec,
                message: "Response body inflates to more than \(maxBodySize) bytes")
        }
        var result = ClientResponse(head: response.head, body: decoded, info: response.info)
        result.rawBody = raw
        return result
    }
}
