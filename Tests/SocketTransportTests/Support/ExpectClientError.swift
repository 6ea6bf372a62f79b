import HTTPCore
import TestSupport
import Testing

/// Expects `body` to throw a `ClientError` with `code`, and returns it.
@discardableResult
func expectClientError(
    _ code: ClientError.Code,
    _ body: () async throws -> Void
) async -> ClientError? {
    do {
        try await body()
    } catch let error as ClientError {
        if error.code != code { Issue.record("expected \(code), got \(error)") }
        return error
    } catch {
        Issue.record("expected ClientError \(code), got \(error)")
        return nil
    }
    Issue.record("expected ClientError \(code), but nothing was thrown")
    return nil
}
