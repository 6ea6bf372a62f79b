import Dispatch
public import HTTPCore
import Synchronization

extension Client {
    /// Sends a request and blocks the calling thread until it finishes (ASIHTTPRequest's `startSynchronous`).
    ///
    /// For scripts, command-line tools and other non-async code. The request runs on the concurrency pool while
    /// this thread waits, so calling it from async code (where it could starve the pool) is a programmer error:
    /// a direct call in an `async` function or in a `main.swift` with a top-level `await` does not compile in the
    /// Swift 6 language mode (`noasync`; a warning in Swift 5 mode), and a call through a synchronous function from
    /// a task traps. Use ``send(_:)`` there; the
    /// README's "Getting started" shows a `main.swift` that mixes both.
    /// - Parameter request: The request.
    /// - Returns: The final response.
    /// - Throws: ``ClientError``; a cancelled request throws ``ClientError/Code/cancelled``.
    @available(*, noasync, message: "sendSynchronously blocks its thread; use 'try await send(_:)' in async code")
    public func sendSynchronously(_ request: Request) throws -> ClientResponse {
        precondition(
            withUnsafeCurrentTask { $0 == nil },
            "sendSynchronously(_:) blocks its thread; call it from non-async code, or use send(_:) in async code")
        let outcome = Mutex<Result<ClientResponse, ClientError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let client = self
        // Non-async callers have no task to run the pipeline in; see Docs/Decisions/0002-unstructured-tasks.md.
        Task {
            let result: Result<ClientResponse, ClientError>
            do {
                result = .success(try await client.send(request))
            } catch {
                result = .failure(ClientError.wrapping(error))
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

extension ClientError {
    /// The error as the callback and blocking styles report it: `CancellationError` becomes
    /// ``Code/cancelled``; anything that is not a `ClientError` becomes ``Code/internalError``. Never inlined, like
    /// `labelled(_:_:)`: a cast to `CancellationError` inside an async function costs a task allocation per call.
    @inline(never)
    static func wrapping(_ error: any Error) -> ClientError {
        switch error {
        case let error as ClientError: error
        case is CancellationError: ClientError(.cancelled, message: "The request was cancelled")
        default: ClientError(.internalError, message: "Unexpected error", underlying: error)
        }
    }
}
