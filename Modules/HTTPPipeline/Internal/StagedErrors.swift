import HTTPCore

/// Runs a plugin call and names the stage in any error it throws (STYLE.md §4: the pipeline fills in `stage`
/// only where it is nil). `CancellationError` passes through unchanged. The stage is worked out only when an
/// error needs it (a middleware's is named after its type, which is costly to spell on every attempt).
func staged<T>(_ stage: @autoclosure () -> ClientError.Stage, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw labelled(error, stage())
    }
}

/// `error` with its stage named, for a plugin call the pipeline makes directly (no closure, no extra async frame):
/// a ``ClientError`` gets `stage` where it has none, `CancellationError` passes through, and any other error is
/// wrapped in a ``ClientError`` whose code fits the stage.
///
/// Never inlined: the cast to `CancellationError` (a standard library type whose size is not known to this module)
/// needs a buffer, and in an async function every such buffer is a task allocation on every call, thrown or not
/// (decision 0034).
@inline(never)
func labelled(_ error: any Error, _ stage: @autoclosure () -> ClientError.Stage) -> any Error {
    switch error {
    case var error as ClientError:
        if error.stage == nil { error.stage = stage() }
        return error
    case let error as CancellationError:
        return error
    default:
        let stage = stage()
        return ClientError(code(for: stage), stage: stage, message: "\(stage) failed", underlying: error)
    }
}

/// The code for an error of a plugin's own type: the transport lost the connection, a middleware failed, a store
/// failed to keep or read.
private func code(for stage: ClientError.Stage) -> ClientError.Code {
    switch stage {
    case .transport: .connectFailed
    case .cache, .credentials, .cookies, .hsts: .storageFailed
    case .codec: .compressionFailed
    case .pipeline: .internalError
    default: .middlewareFailed
    }
}
