import CNGHTTP2
import HTTPCore

/// nghttp2's callbacks: they run inside `nghttp2_session_mem_recv` and `_mem_send`, so with the session's lock held,
/// and reach the ``HTTP2Connection`` through the user data.
enum HTTP2Callbacks {
    static func install(on callbacks: OpaquePointer?) {
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let name, let value else { return 0 }
            let connection = HTTP2Callbacks.connection(user)
            guard let stream = connection.streams[frame.pointee.hd.stream_id] else { return 0 }
            return connection.receivedField(
                on: stream, name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength))
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame else { return 0 }
            HTTP2Callbacks.connection(user).received(frame.pointee)
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            guard let data else { return 0 }
            HTTP2Callbacks.connection(user).receivedData(
                UnsafeBufferPointer(start: data, count: length), streamID: streamID)
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, errorCode, user in
            HTTP2Callbacks.connection(user).closed(streamID: streamID, errorCode: errorCode)
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_not_send_callback(callbacks) { _, frame, errorCode, user in
            guard let frame, UInt32(frame.pointee.hd.type) == NGHTTP2_HEADERS.rawValue else { return 0 }
            HTTP2Callbacks.connection(user).notSent(streamID: frame.pointee.hd.stream_id, libraryError: errorCode)
            return 0
        }
    }

    /// The request body's source for `nghttp2_submit_request`.
    static let readBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, user in
        guard let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        return HTTP2Callbacks.connection(user).readUpload(
            streamID: streamID, into: UnsafeMutableBufferPointer(start: buffer, count: length), flags: flags)
    }

    static func connection(_ user: UnsafeMutableRawPointer?) -> HTTP2Connection {
        Unmanaged<HTTP2Connection>.fromOpaque(user!).takeUnretainedValue()
    }
}

extension HTTP2Connection {
    /// One response field: `:status`, or a header or trailer field. A section over the size limit resets the stream.
    func receivedField(on stream: HTTP2Stream, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
        -> Int32
    {
        stream.lastActivity = .now
        stream.sectionSize += name.count + value.count + 32
        guard stream.sectionSize <= configuration.maxHeaderListSize else {
            fail(stream, with: ClientError(
                .protocolViolation, stage: .transport,
                message: "The response's header section is larger than \(configuration.maxHeaderListSize) bytes"))
            return Int32(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue)
        }
        if name.first == UInt8(ascii: ":") {
            if name.elementsEqual(":status".utf8) { stream.status = Int(String(decoding: value, as: UTF8.self)) }
            return 0
        }
        guard let fieldName = HTTPField.Name(String(decoding: name, as: UTF8.self)) else { return 0 }
        let field = HTTPField(name: fieldName, value: String(decoding: value, as: UTF8.self))
        if stream.headArrived {
            var trailers = stream.trailers ?? HTTPFields()
            trailers.append(field)
            stream.trailers = trailers
        } else {
            stream.fields.append(field)
        }
        return 0
    }

    /// A whole frame arrived.
    func received(_ frame: nghttp2_frame) {
        let type = UInt32(frame.hd.type)
        let endsStream = frame.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch type {
        case NGHTTP2_HEADERS.rawValue, NGHTTP2_DATA.rawValue:
            guard let stream = streams[frame.hd.stream_id] else { return }
            if type == NGHTTP2_HEADERS.rawValue && !stream.headArrived {
                stream.sectionSize = 0
                if let status = stream.status, (100..<200).contains(status) {
                    // An interim response (100 Continue, 103 Early Hints): the final head follows.
                    stream.status = nil
                    stream.fields = HTTPFields()
                } else {
                    stream.headArrived = true
                    headsReceived += 1
                    if let waiter = stream.headWaiter {
                        stream.headWaiter = nil
                        actions.append(.resumeHead(waiter, nil))
                    }
                }
            }
            if endsStream {
                stream.remoteEnded = true
                if let waiter = stream.bodyWaiter, stream.chunkIndex >= stream.chunks.count {
                    stream.bodyWaiter = nil
                    actions.append(.resumeBody(waiter, .success(nil)))
                }
            }
        case NGHTTP2_SETTINGS.rawValue:
            guard let session else { return }
            let limit = nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
            // No limit announced (2^32 - 1): keep the assumed one.
            maxStreams = limit == UInt32.max ? configuration.assumedMaxConcurrentStreams : Int(limit)
            actions.append(.capacityChanged)
        case NGHTTP2_GOAWAY.rawValue:
            goingAway = true
            lastStreamID = frame.goaway.last_stream_id
            actions.append(.capacityChanged)
        default:
            break
        }
    }

    /// Body bytes for a stream: kept for its reader (acknowledged when read), or acknowledged at once when nobody
    /// will read them. A waiting reader is never woken from inside nghttp2: its bytes pile up, up to
    /// ``HTTP2Connection/deferredWakeUpBytes``, and it is woken once for all of them (``wakeDeferredReaders()``)
    /// when the driver is done with the socket read that brought them, or, in a burst of reads
    /// (``defersBodyWakeups``), when the burst ends: one hand-over between threads per read or burst, with the
    /// frames gathered into one chunk, instead of one per `DATA` frame.
    func receivedData(_ data: UnsafeBufferPointer<UInt8>, streamID: Int32) {
        guard let stream = streams[streamID], !stream.discarded, stream.failure == nil else {
            if let session { _ = nghttp2_session_consume(session, streamID, data.count) }
            return
        }
        stream.lastActivity = .now
        stream.lowSpeed?.record(data.count)
        stream.appendBody(data)
        guard stream.bodyWaiter != nil else { return }
        stream.deferredBytes += data.count
        if stream.deferredBytes < Self.deferredWakeUpBytes {
            if !stream.isDeferred {
                stream.isDeferred = true
                deferredReaders.append(stream)
            }
            return
        }
        wakeBodyReader(stream)
    }

    /// Hands the next buffered chunk (at most the reader's bandwidth grant) to the stream's waiting reader.
    func wakeBodyReader(_ stream: HTTP2Stream) {
        stream.deferredBytes = 0
        guard let waiter = stream.bodyWaiter, let chunk = stream.popChunk(upTo: stream.bodyWaiterLimit) else { return }
        stream.bodyWaiter = nil
        consume(chunk.count, of: stream)
        actions.append(.resumeBody(waiter, .success(chunk)))
    }

    /// The burst of reads is over: wakes the readers whose bytes were held back.
    func wakeDeferredReaders() {
        defersBodyWakeups = false
        guard !deferredReaders.isEmpty else { return }
        for stream in deferredReaders {
            stream.isDeferred = false
            wakeBodyReader(stream)
        }
        deferredReaders.removeAll(keepingCapacity: true)
    }

    /// nghttp2 closed a stream: both sides ended, or it was reset (by the server, by us, or by a `GOAWAY` that did
    /// not cover it).
    func closed(streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        stream.isClosed = true
        lastStreamEnded = .now
        actions.append(.capacityChanged)
        if errorCode == NGHTTP2_REFUSED_STREAM.rawValue && !stream.headArrived {
            fail(stream, with: RequestNotProcessed(error: ClientError(
                .streamReset, stage: .transport,
                message: "The server refused stream \(streamID) without processing it (REFUSED_STREAM)")))
        } else if errorCode != NGHTTP2_NO_ERROR.rawValue {
            let name = String(cString: nghttp2_http2_strerror(errorCode))
            fail(stream, with: ClientError(
                .streamReset, stage: .transport, message: "The server reset stream \(streamID): \(name)"))
        } else if !stream.remoteEnded {
            fail(stream, with: ClientError(
                stream.headArrived ? .incompleteBody : .emptyResponse, stage: .transport,
                message: "Stream \(streamID) closed before the response was complete"))
        } else {
            wakeUploader(stream, .stopped)
        }
    }

    /// A request's `HEADERS` could not be sent (a `GOAWAY` arrived first, or the connection is closing): nothing
    /// reached the server.
    func notSent(streamID: Int32, libraryError: Int32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        stream.isClosed = true
        lastStreamEnded = .now
        actions.append(.capacityChanged)
        let reason = String(cString: nghttp2_strerror(libraryError))
        fail(stream, with: RequestNotProcessed(error: ClientError(
            .streamReset, stage: .transport, message: "The request could not be sent on the connection: \(reason)")))
    }

    /// Copies upload bytes for a `DATA` frame; defers when none are buffered yet, ends the stream when the body is
    /// complete.
    func readUpload(
        streamID: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>, flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let stream = streams[streamID] else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        let count = min(buffer.count, stream.pendingUpload)
        if count > 0 {
            stream.upload.withUnsafeBufferPointer { upload in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[..<count])
                    .initialize(from: upload[stream.uploadOffset..<(stream.uploadOffset + count)])
            }
            stream.uploadOffset += count
            stream.lastActivity = .now
            stream.lowSpeed?.record(count)
            if stream.pendingUpload == 0 {
                stream.upload.removeAll(keepingCapacity: true)
                stream.uploadOffset = 0
            }
            if stream.pendingUpload < HTTP2Session.uploadBufferLimit / 2 { wakeUploader(stream, .roomFreed) }
        }
        if stream.pendingUpload == 0 && stream.uploadEnded {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return count
        }
        return count > 0 ? count : Int(NGHTTP2_ERR_DEFERRED.rawValue)
    }
}
