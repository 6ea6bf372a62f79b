import HTTPCore

/// Saves a final response's body to a file (ASIHTTPRequest's `downloadDestinationPath`), through a temporary file
/// that is moved into place only when the body is complete, resuming a partial file when allowed.
///
/// Only a 2xx body is saved, and a 416 can complete a resumed download; any other status (a 404 page, a 500)
/// leaves the files alone and its body is returned in memory, so a failed attempt never replaces the destination
/// or destroys a partial download (a deliberate change from ASIHTTPRequest; see Docs/Decisions/0003).
struct FileDownload {
    let options: DownloadOptions
    /// The request as the pipeline sent it last (after redirects).
    let request: Request
    let codecs: [any ContentCodec]
    let maxBodySize: Int

    /// Receives the body; returns it only when it was not saved.
    func receive(_ response: StreamingResponse) async throws -> [UInt8] {
        do {
            try DownloadFile.checkDestination(options.destinationPath)
        } catch {
            await response.body.discard()
            throw error
        }
        let head = response.head
        let resumeFrom = ResumeRange.start(for: request)
        // Only a named temporary file can be resumed; an automatic one is never kept.
        let resumable = options.allowsResume && options.temporaryPath != nil
        let temporary =
            options.temporaryPath
            ?? DownloadFile.siblingPath(of: options.destinationPath, suffix: "download")
        if head.status.code == 416, let resumeFrom {
            return try await rangeNotSatisfiable(response, temporary: temporary, partialSize: resumeFrom)
        }
        guard (200..<300).contains(head.status.code) else {
            return try await staged(.transport) { try await response.body.collect(upTo: maxBodySize) }
        }
        var append = false
        if head.status.code == 206, let resumeFrom {
            let range = head.headerFields[.contentRange].flatMap(ResumeRange.parse(contentRange:))
            guard range?.first == resumeFrom else {
                await response.body.discard()
                throw ClientError(
                    .protocolViolation, stage: .pipeline,
                    message: "The server did not resume the download at byte \(resumeFrom)")
            }
            append = true
        }
        // A resumed 206 completes the compressed file, which is then whole and can be inflated.
        let reader = DecodingPlan.Reader.file(partial: append, resumable: resumable)
        let plan = DecodingPlan.plan(for: response, reader: reader, codecs: codecs)
        let body = try plan.streaming(response.body, codecs: codecs)
        var inflating: HTTPFields?
        if case .whenComplete(let fields) = plan { inflating = fields }
        let size: Int64
        do {
            let file = try DownloadFile(path: temporary, append: append)
            try await staged(.transport) {
                for try await chunk in body { try file.append(chunk) }
            }
            try file.closeFile()
            size = file.size
        } catch {
            await body.discard()
            if !resumable { DownloadFile.remove(temporary) }
            throw error
        }
        try await finish(temporary, size: size, inflating: inflating)
        return []
    }

    /// A 416 to a resumed request: when `Content-Range: bytes */<total>` says the partial file is already whole,
    /// the download is finished; otherwise the partial file does not belong to this resource and is removed.
    private func rangeNotSatisfiable(
        _ response: StreamingResponse, temporary: String, partialSize: Int64
    )
        async throws -> [UInt8]
    {
        let total = response.head.headerFields[.contentRange].flatMap(ResumeRange.parse(contentRange:))?.total
        if total == partialSize {
            await response.body.discard()
            try await finish(temporary, size: partialSize, inflating: nil)
            return []
        }
        DownloadFile.remove(temporary)
        return try await staged(.transport) { try await response.body.collect(upTo: maxBodySize) }
    }

    /// Moves the complete temporary file to the destination, inflating it on the way when `inflating` holds the
    /// response's fields. An empty body creates no file.
    private func finish(_ temporary: String, size: Int64, inflating fields: HTTPFields?) async throws {
        guard size > 0 else {
            DownloadFile.remove(temporary)
            return
        }
        guard let fields else {
            try DownloadFile.move(temporary, to: options.destinationPath)
            return
        }
        let staging = DownloadFile.siblingPath(of: options.destinationPath, suffix: "inflating")
        do {
            let decoder = try codecStaged { try ContentCoding.makeDecoder(for: fields, codecs: codecs) }
            let output = try DownloadFile(path: staging, append: false)
            let input = FileSegmentReader([.file(path: temporary, length: size)])
            while let chunk = try input.next() {
                try codecStaged { try ContentCoding.decode(chunk, with: decoder) { try output.append($0) } }
                await Task.yield()  // inflating a large file is long CPU work; let other tasks run between chunks
            }
            try output.append(try codecStaged { try decoder.finish() })
            try output.closeFile()
            try DownloadFile.move(staging, to: options.destinationPath)
            DownloadFile.remove(temporary)
        } catch {
            DownloadFile.remove(staging)
            // A complete body that does not inflate cannot be resumed into a good one; after a storage error
            // (a full disk) a resumable one is kept.
            if (error as? ClientError)?.code != .storageFailed || options.temporaryPath == nil || !options.allowsResume
            {
                DownloadFile.remove(temporary)
            }
            throw error
        }
    }
}
