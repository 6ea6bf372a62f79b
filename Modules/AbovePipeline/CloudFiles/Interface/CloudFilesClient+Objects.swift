public import HTTPCore
import HTTPPipeline

extension CloudFilesClient {
    /// Puts an object from a body (memory, a file streamed from disk, or a stream).
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object's name.
    ///   - body: The content.
    ///   - options: Content type, metadata, expiry, other fields.
    /// - Returns: The object's ETag (the MD5 of the content).
    /// - Throws: ``CloudFilesError`` (`.invalidInput` for a name or metadata over `/info`'s limits) or `ClientError`.
    @discardableResult
    public func putObject(
        container: String, name: String, body: RequestBody, options: CloudFilesObjectOptions = .init()
    ) async throws -> String {
        let limits = await knownLimits()
        if let max = limits?.maxObjectNameLength, name.utf8.count > max {
            throw CloudFilesError(code: .invalidInput, message: "object name longer than \(max) bytes")
        }
        if let max = limits?.maxFileSize, let length = body.length, length > max {
            throw CloudFilesError(
                code: .invalidInput, message: "\(length) bytes is over max_file_size \(max): upload a large object")
        }
        var request = try await request(
            .put, container: container, object: name, headers: try options.fields(limits: limits), body: body)
        if body.length == nil { request.headerFields[.transferEncoding] = "chunked" }
        return CloudFilesObjectInfo(fields: try await perform(request).headerFields).eTag
    }

    /// Gets an object into memory (or a byte range of it).
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object.
    ///   - range: The bytes to get; all by default.
    /// - Returns: The head and the bytes.
    /// - Throws: ``CloudFilesError`` (`.notFound`) or `ClientError`.
    public func getObject(
        container: String, name: String, range: ClosedRange<Int64>? = nil
    ) async throws -> (info: CloudFilesObjectInfo, body: [UInt8]) {
        var fields = HTTPFields()
        if let range { fields[.range] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        let response = try await perform(try await request(.get, container: container, object: name, headers: fields))
        return (CloudFilesObjectInfo(fields: response.headerFields), response.body)
    }

    /// Downloads an object to a file, streamed to disk; the file appears only when complete (a failed download
    /// leaves no file), and with `resume` a partial `path + ".download"` continues with `Range`.
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object.
    ///   - path: Where to save it.
    ///   - resume: Whether to continue a partial download.
    /// - Returns: The object's head.
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    @discardableResult
    public func downloadObject(
        container: String, name: String, to path: String, resume: Bool = false
    ) async throws -> CloudFilesObjectInfo {
        var request = try await request(.get, container: container, object: name)
        request.options.download = DownloadOptions(
            destinationPath: path, temporaryPath: path + ".download", allowsResume: resume)
        return CloudFilesObjectInfo(fields: try await perform(request).headerFields)
    }

    /// An object's size, ETag, type and metadata (`HEAD`).
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object.
    /// - Returns: The head.
    /// - Throws: ``CloudFilesError`` (`.notFound`) or `ClientError`.
    public func objectInfo(container: String, name: String) async throws -> CloudFilesObjectInfo {
        CloudFilesObjectInfo(
            fields: try await perform(try await request(.head, container: container, object: name)).headerFields)
    }

    /// Deletes an object; with `includingSegments`, a static large object's segments too
    /// (`?multipart-manifest=delete`).
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object.
    ///   - includingSegments: Whether to delete an SLO's segments with its manifest.
    /// - Throws: ``CloudFilesError`` (`.notFound`) or `ClientError`.
    public func deleteObject(container: String, name: String, includingSegments: Bool = false) async throws {
        let query: [(String, String?)] = includingSegments ? [("multipart-manifest", "delete")] : []
        try await perform(try await request(.delete, container: container, object: name, query: query))
    }

    /// Replaces an object's metadata (`POST`: Swift keeps only the metadata this request sends), and its expiry.
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object.
    ///   - options: The metadata, `X-Delete-After`/`At`, content type and other fields.
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func updateObjectMetadata(container: String, name: String, options: CloudFilesObjectOptions) async throws {
        let fields = try options.fields(limits: await knownLimits())
        try await perform(try await request(.post, container: container, object: name, headers: fields))
    }

    /// Copies an object on the server (`COPY` with `Destination`); the copy keeps the source's metadata, with
    /// `options`' metadata added over it.
    /// - Parameters:
    ///   - container: The source container.
    ///   - name: The source object.
    ///   - destinationContainer: The destination container (it must exist).
    ///   - destinationName: The destination object.
    ///   - options: Metadata and fields for the copy.
    /// - Throws: ``CloudFilesError`` (`.notFound` for a missing source or destination container) or `ClientError`.
    public func copyObject(
        container: String, name: String, to destinationContainer: String, name destinationName: String,
        options: CloudFilesObjectOptions = .init()
    ) async throws {
        var fields = try options.fields(limits: await knownLimits())
        fields[HTTPField.Name("Destination")!] =
            "/" + PathEncoding.path(destinationContainer, keepsSlash: false) + "/" + PathEncoding.path(destinationName)
        try await perform(
            try await request(HTTPRequest.Method("COPY")!, container: container, object: name, headers: fields))
    }
}
