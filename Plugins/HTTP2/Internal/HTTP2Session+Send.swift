import CNGHTTP2
import HTTPCore

extension HTTP2Session {
    /// Sends one request on a reserved stream: submits its head, streams its body, and returns once the final
    /// response head has arrived (interim 1xx heads are skipped).
    func send(_ request: Request, route: ProxyRoute, context: RequestContext) async throws -> Response {
        let block: HTTP2HeaderBlock
        do {
            block = try HTTP2HeaderBlock(request: request)
        } catch {
            releaseReservation()
            throw error
        }
        let isHead = request.method == .head
        let stream = HTTP2Stream(isHead: isHead, window: configuration.initialStreamWindowSize)
        stream.timeout = request.options.timeout
        stream.lowSpeed = request.options.lowSpeedLimit.map { HTTP2LowSpeedWindow(limit: $0, now: .now) }
        let body = request.body.flatMap { $0.length == 0 ? nil : $0 }
        try locked { connection in
            connection.reserved -= 1
            guard let session = connection.session, !connection.isClosed, !connection.goingAway else {
                throw RequestNotProcessed(error: ClientError(
                    .streamReset, stage: .transport, message: "The HTTP/2 connection stopped taking requests"))
            }
            let id = block.withNameValuePairs { pairs, count -> Int32 in
                guard body != nil else { return nghttp2_submit_request(session, nil, pairs, count, nil, nil) }
                var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil),
                                                     read_callback: HTTP2Callbacks.readBody)
                return nghttp2_submit_request(session, nil, pairs, count, &provider, nil)
            }
            guard id > 0 else {
                connection.actions.append(.capacityChanged)
                throw ClientError(.invalidRequest, stage: .transport,
                                  message: "HTTP/2: \(String(cString: nghttp2_strerror(id)))")
            }
            stream.id = id
            stream.retriesIfConnectionLost = request.isIdempotent && connection.headsReceived > 0
            connection.streams[id] = stream
        }
        self.stream.wakeReader()
        return try await withTaskCancellationHandler {
            if let body { try await upload(body, on: stream, context: context) }
            try await headArrival(of: stream)
            return makeResponse(stream, route: route, context: context)
        } onCancel: {
            reset(stream, with: CancellationError())
        }
    }

    /// Resets `stream` (`RST_STREAM` with `CANCEL`) and fails its waiters with `error`.
    func reset(_ stream: HTTP2Stream, with error: any Error) {
        lockedWakingWriter { connection in
            if !stream.isClosed, stream.id > 0, let session = connection.session {
                _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream.id,
                                              NGHTTP2_CANCEL.rawValue)
            }
            connection.fail(stream, with: error)
        }
    }

    /// Streams the request body into the stream's buffer, waiting while it is full. Stops early when the stream
    /// closes (the server answered or reset it; the head wait then says which).
    private func upload(_ body: RequestBody, on stream: HTTP2Stream, context: RequestContext) async throws {
        var progress = context.progress.map { _ in
            UploadCounter(context: context, expected: body.length)
        }
        let limiter = context.bandwidth
        let transfer = context.bandwidthTransfer(.upload)
        for try await whole in body.makeChunks() where !whole.isEmpty {
            guard let limiter else {
                guard try await buffer(whole, on: stream) else { return }
                progress?.add(whole.count)
                continue
            }
            // Throttled: each piece is asked for before it is buffered (256 KiB at most ahead of the wire) and
            // settled as it goes in.
            var offset = 0
            while offset < whole.count {
                let granted = max(1, min(try await limiter.grant(upTo: whole.count - offset, for: transfer),
                                         whole.count - offset))
                let piece = Array(whole[offset..<(offset + granted)])
                let taken: Bool
                do {
                    taken = try await buffer(piece, on: stream)
                } catch {
                    limiter.settle(used: 0, granted: granted, for: transfer)
                    throw error
                }
                limiter.settle(used: taken ? granted : 0, granted: granted, for: transfer)
                guard taken else { return }
                offset += granted
                progress?.add(granted)
            }
        }
        lockedWakingWriter { connection in
            stream.uploadEnded = true
            if let session = connection.session, !stream.isClosed {
                _ = nghttp2_session_resume_data(session, stream.id)
            }
        }
    }

    /// Buffers one chunk of the upload, waiting while the buffer is full.
    /// - Returns: `false` when the stream closed first (the server answered or reset it).
    private func buffer(_ chunk: [UInt8], on stream: HTTP2Stream) async throws -> Bool {
        var buffered = false
        while !buffered {
            let step = try await withUnsafeThrowingContinuation {
                (waiter: UnsafeContinuation<HTTP2Connection.UploadProgress, any Error>) in
                let ready: Result<HTTP2Connection.UploadProgress, any Error>? = lockedWakingWriter { connection in
                    if let failure = stream.failure { return .failure(failure) }
                    if stream.isClosed { return .success(.stopped) }
                    guard stream.pendingUpload < Self.uploadBufferLimit else {
                        stream.uploadWaiter = waiter
                        return nil
                    }
                    stream.upload.append(contentsOf: chunk)
                    if let session = connection.session { _ = nghttp2_session_resume_data(session, stream.id) }
                    return .success(.buffered)
                }
                if let ready { waiter.resume(with: ready) }
            }
            switch step {
            case .stopped: return false
            case .roomFreed: continue
            case .buffered: buffered = true
            }
        }
        return true
    }

    private func headArrival(of stream: HTTP2Stream) async throws {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waiter: UnsafeContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = locked { _ in
                    if stream.headArrived { return .success(()) }
                    if let failure = stream.failure { return .failure(failure) }
                    stream.headWaiter = waiter
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            reset(stream, with: CancellationError())
        }
    }

    private func makeResponse(_ stream: HTTP2Stream, route: ProxyRoute, context: RequestContext) -> Response {
        let (status, fields) = locked { _ in (stream.status ?? 0, stream.fields) }
        let hasNoBody = stream.isHead || status == 204 || status == 304
        let expected = hasNoBody ? 0 : fields[.contentLength].flatMap { Int64($0) }
        let source = HTTP2BodySource(session: self, stream: stream, context: context, expected: expected)
        return Response(status: HTTPResponse.Status(code: status), version: .http2, headerFields: fields,
                        body: ResponseBody(expectedLength: expected, source: source),
                        connectionID: self.stream.connectionID, route: route)
    }
}

/// Reports upload progress.
private struct UploadCounter {
    let context: RequestContext
    let expected: Int64?
    var completed: Int64 = 0

    mutating func add(_ count: Int) {
        completed += Int64(count)
        context.progress?.receive(ProgressEvent(requestID: context.requestID, direction: .upload,
                                               completedBytes: completed, expectedBytes: expected))
    }
}
