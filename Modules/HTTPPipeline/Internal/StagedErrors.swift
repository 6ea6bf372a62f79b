import HTTPCore

/// Runs a plugin call and names the stage in any error it throws (STYLE.md §4: the pipeline fills in `stage`
/// only where it is nil). `CancellationError` passes through unchanged. The stage is worked out only when an
/// error needs it (a middleware's is named after its type, which is costly to spell on every attempt).
func staged<T>(_ stage: @autoclosure () -> ClientError.Stage, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch var error as ClientError {
        if error.stage == nil { error.stage = stage() }
        throw error
    } catch let error as CancellationError {
        throw error
    } catch {
        let stage = stage()
        throw ClientError(code(for: stage), stage: stage, message: "\(stage) failed", underlying: error)
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
