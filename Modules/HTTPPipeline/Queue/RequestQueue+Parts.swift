package import HTTPCore

extension RequestQueue {
    /// Sends the numbered parts of one upload through a queue of their own, each sent again after a retryable
    /// failure until it has had `attempts` tries: the loop S3's multipart upload and OpenStack Swift's large-object
    /// upload share.
    ///
    /// Each round suspends the queue, adds every pending part (its number in the request's `tag`), starts the queue
    /// and reads every result. A part whose `accept` throws goes into the next round when `isRetryable` says so and
    /// it has tries left; otherwise that first error cancels the parts still running, and is thrown once the round
    /// is over (later errors of the round are dropped). Cancelling the calling task cancels the queue.
    /// - Parameters:
    ///   - parts: The numbers of the parts to send.
    ///   - client: The client that sends them.
    ///   - width: How many parts are sent at once.
    ///   - progress: Where the upload's progress goes, accurate over all the parts.
    ///   - attempts: The tries a part gets.
    ///   - makeRequest: The request of a part, made again for each try.
    ///   - accept: Checks a part's result; throws when it failed. Called for every result, also after a failure.
    ///   - isRetryable: Whether a part that failed with this error is sent again.
    /// - Throws: The first error that is not retried, or `CancellationError`.
    package static func sendParts(
        _ parts: [Int],
        client: Client,
        width: Int,
        progress: (any ProgressSink)?,
        attempts: Int,
        makeRequest: (Int) async throws -> Request,
        accept: (Int, Result<ClientResponse, ClientError>) throws -> Void,
        isRetryable: (any Error) -> Bool
    ) async throws {
        let queue = RequestQueue(
            client: client,
            configuration: .init(
                maxConcurrentRequests: width, cancelsAllOnFailure: false, showsAccurateProgress: true,
                progress: progress))
        var tries = [Int: Int]()
        var pending = parts
        while !pending.isEmpty {
            try Task.checkCancellation()
            queue.suspend()
            for part in pending {
                var request = try await makeRequest(part)
                request.tag = part
                tries[part, default: 0] += 1
                queue.add(request)
            }
            pending = []
            let results = queue.results
            queue.go()
            var failure: (any Error)?
            await withTaskCancellationHandler {
                for await result in results {
                    let part = result.request.tag
                    do {
                        try accept(part, result.result)
                    } catch where failure == nil {
                        if tries[part, default: 0] < attempts && isRetryable(error) {
                            pending.append(part)
                        } else {
                            failure = error
                            queue.cancelAll()
                        }
                    } catch {}
                }
            } onCancel: {
                queue.cancelAll()
            }
            if let failure { throw failure }
        }
        try Task.checkCancellation()
    }
}
