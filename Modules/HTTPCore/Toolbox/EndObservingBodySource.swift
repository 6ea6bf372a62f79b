/// How a response body ended, for an ``EndObservingBodySource``'s observer.
package enum BodyEnd: Sendable {
    /// Read to the end: the source returned `nil`.
    case finished
    /// Reading failed with this error (rethrown to the reader unchanged).
    case failed(any Error)
    /// The reader gave the body up (`discard()`).
    case discarded
}

/// What an ``EndObservingBodySource`` tells when its body ends. A class, so the wrapper holds it without a
/// closure (no extra allocation a response).
package protocol BodyEndObserver: AnyObject, Sendable {
    /// The body ended; called once for `finished` or `failed`, and once more for a later `discard()`.
    /// - Parameter end: How it ended.
    func bodyEnded(_ end: BodyEnd)
}

/// The one body wrapper that passes chunks through untouched and tells its observer how the body ended: the
/// pipeline's progress relay (the download's final size) and the observability middleware (the attempt's span and
/// timer) both wrap bodies with it. `package`, shared by HTTPPipeline and ASIKitObservability.
package final class EndObservingBodySource<Observer: BodyEndObserver>: ResponseBodySource {
    private let base: any ResponseBodySource
    private let observer: Observer

    /// Wraps `base`, telling `observer` when it ends.
    /// - Parameters:
    ///   - base: The body to pass through.
    ///   - observer: Told `finished`, `failed` or `discarded`.
    package init(base: any ResponseBodySource, observer: Observer) {
        self.base = base
        self.observer = observer
    }

    /// The base's next chunk; at the end or on a failure the observer is told first.
    package func next() async throws -> [UInt8]? {
        do {
            guard let chunk = try await base.next() else {
                observer.bodyEnded(.finished)
                return nil
            }
            return chunk
        } catch {
            observer.bodyEnded(.failed(error))
            throw error
        }
    }

    /// The base's trailers.
    package var trailers: HTTPFields? { base.trailers }

    /// Discards the base, then tells the observer.
    package func discard() async {
        await base.discard()
        observer.bodyEnded(.discarded)
    }
}
