import HTTPCore

/// A response body that ends its attempt's span and timer when it has been read to the end, fails, or is given
/// up; the chunks pass through untouched.
final class ObservedBodySource: ResponseBodySource {
    private let base: any ResponseBodySource
    private let attempt: AttemptObservation

    init(base: any ResponseBodySource, attempt: AttemptObservation) {
        self.base = base
        self.attempt = attempt
    }

    func next() async throws -> [UInt8]? {
        do {
            guard let chunk = try await base.next() else {
                attempt.finish(error: nil)
                return nil
            }
            return chunk
        } catch {
            attempt.finish(error: error)
            throw error
        }
    }

    func discard() async {
        await base.discard()
        attempt.finish(error: nil)
    }
}
