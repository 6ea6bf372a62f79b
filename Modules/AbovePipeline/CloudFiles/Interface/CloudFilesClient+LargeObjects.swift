public import HTTPCore
import HTTPPipeline

extension CloudFilesClient {
    /// Uploads a file as a large object: segments streamed from disk through a `RequestQueue` into the segment
    /// container, then a static manifest (`?multipart-manifest=put`) or a dynamic one (`X-Object-Manifest`).
    ///
    /// Resumable: segments are named as python-swiftclient names them (`<name>/slo/<mtime>/<size>/<segment
    /// size>/<index>`, without `slo/` for a dynamic object), and a segment already in the segment container with the
    /// same size and MD5 is not sent again, so running the upload again after a failure sends only what is missing.
    /// The object gets `X-Object-Meta-Mtime` as swiftclient sets it. An empty file becomes a plain empty object (Swift
    /// refuses empty segments).
    /// - Parameters:
    ///   - container: The container.
    ///   - name: The object's name.
    ///   - path: The file; it must not change while uploading.
    ///   - options: The manifest object's content type, metadata and expiry.
    ///   - configuration: Kind, segment size, segment container, width, attempts.
    ///   - progress: Receives the queue's progress events.
    /// - Returns: What was sent.
    /// - Throws: ``CloudFilesError`` (`.invalidInput` when `/info`'s SLO limits refuse the plan) or `ClientError`
    ///   (the last failure of the segment that failed), or `CancellationError`.
    @discardableResult
    public func uploadLargeObject(
        container: String, name: String, fromFile path: String, options: CloudFilesObjectOptions = .init(),
        configuration: LargeObjectConfiguration, progress: (any ProgressSink)? = nil
    ) async throws -> LargeObjectUpload {
        let file = try LocalFile(path: path)
        let segmentContainer = configuration.segmentContainer ?? container + "_segments"
        guard file.size > 0 else {
            // Swift refuses empty segments in a manifest: an empty file is a plain empty object.
            let eTag = try await putObject(container: container, name: name, body: .bytes([]), options: options)
            return LargeObjectUpload(
                eTag: eTag, segmentContainer: segmentContainer, segmentPrefix: "", segmentCount: 0, segmentsSent: 0)
        }
        let count = Int((file.size + configuration.segmentSize - 1) / configuration.segmentSize)
        let limits = await knownLimits()
        if configuration.kind == .staticManifest, let limits {
            guard limits.supportsStaticLargeObjects else {
                throw CloudFilesError(code: .invalidInput, message: "the cluster has no static large objects")
            }
            if let max = limits.maxManifestSegments, count > max {
                throw CloudFilesError(
                    code: .invalidInput, message: "\(count) segments, over slo.max_manifest_segments \(max)")
            }
            if let min = limits.minSegmentSize, count > 1, configuration.segmentSize < min {
                throw CloudFilesError(code: .invalidInput, message: "segments under slo.min_segment_size \(min)")
            }
        }
        let prefix =
            name + (configuration.kind == .staticManifest ? "/slo/" : "/")
            + "\(file.mtime)/\(file.size)/\(configuration.segmentSize)/"
        try await createContainer(segmentContainer)
        var existing = [String: CloudFilesObject]()
        for try await page in listObjects(container: segmentContainer, prefix: prefix) {
            for entry in page { existing[entry.name] = entry }
        }
        var segments = [Segment]()
        var missing = [Int]()
        for index in 0..<count {
            let offset = Int64(index) * configuration.segmentSize
            let length = min(configuration.segmentSize, file.size - offset)
            let segment = Segment(
                name: prefix + LocalFile.index(index), offset: offset, length: length,
                eTag: try Self.md5(path: path, offset: offset, length: length))
            segments.append(segment)
            if let old = existing[segment.name], old.bytes == length, old.hash == segment.eTag { continue }
            missing.append(index)
        }
        try await uploadSegments(
            segments, indices: missing, container: segmentContainer, path: path, configuration: configuration,
            progress: progress)
        var objectOptions = options
        if objectOptions.metadata["mtime"] == nil { objectOptions.metadata["mtime"] = file.mtime }
        var fields = try objectOptions.fields(limits: limits)
        let request: Request
        switch configuration.kind {
        case .staticManifest:
            let manifest =
                "["
                + segments.map {
                    "{\"path\":\(JSONText.string("/" + segmentContainer + "/" + $0.name)),"
                        + "\"etag\":\"\($0.eTag)\",\"size_bytes\":\($0.length)}"
                }.joined(separator: ",") + "]"
            request = try await self.request(
                .put, container: container, object: name, query: [("multipart-manifest", "put")], headers: fields,
                body: .string(manifest))
        case .dynamicManifest:
            fields[HTTPField.Name("X-Object-Manifest")!] =
                PathEncoding.path(segmentContainer, keepsSlash: false) + "/" + PathEncoding.path(prefix)
            request = try await self.request(
                .put, container: container, object: name, headers: fields, body: .bytes([]))
        }
        let eTag = CloudFilesObjectInfo(fields: try await perform(request).headerFields).eTag
        return LargeObjectUpload(
            eTag: eTag, segmentContainer: segmentContainer, segmentPrefix: prefix, segmentCount: count,
            segmentsSent: missing.count)
    }

    private func uploadSegments(
        _ segments: [Segment], indices: [Int], container: String, path: String,
        configuration: LargeObjectConfiguration, progress: (any ProgressSink)?
    ) async throws {
        guard !indices.isEmpty else { return }
        try await RequestQueue.sendParts(
            indices, client: client, width: configuration.maxConcurrentSegments, progress: progress,
            attempts: configuration.attemptsPerSegment,
            makeRequest: { index in
                let segment = segments[index]
                var fields = HTTPFields()
                fields[HTTPField.Name("ETag")!] = segment.eTag
                return try await self.request(
                    .put, container: container, object: segment.name, headers: fields,
                    body: RequestBody.fileRange(path: path, offset: segment.offset, length: segment.length))
            },
            accept: { _, result in try Self.check(try result.get()) },
            isRetryable: Self.isRetryable)
    }

    /// The MD5 of a byte range of a file, read in chunks: what Swift's ETag of a segment holding it is.
    static func md5(path: String, offset: Int64, length: Int64) throws -> String {
        let reader = FileChunkReader(path: path, start: offset, length: length, chunkSize: RequestBody.fileChunkSize)
        let md5 = StreamingMD5()
        while let chunk = try reader.read() { md5.update(chunk) }
        return md5.finish()
    }

    /// A segment is sent again after a transport failure, a timeout, or a server error (5xx).
    static func isRetryable(_ error: any Error) -> Bool {
        if let error = error as? CloudFilesError { return error.status >= 500 }
        if let error = error as? ClientError { return error.code != .cancelled }
        return false
    }
}

/// One segment of a large-object upload.
struct Segment {
    var name: String
    var offset: Int64
    var length: Int64
    var eTag: String
}
