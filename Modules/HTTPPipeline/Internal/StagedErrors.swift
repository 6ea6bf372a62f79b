import HTTPCore

/// Runs a plugin call and names the stage in any error it throws (STYLE.md §4: the pipeline fills in `stage`
/// only where it is nil). `CancellationError` passes through unchanged.
func staged<T>(_ stage: ClientError.Stage, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch var error as ClientError {
        if error.stage == nil { error.stage = stage }
        throw error
    } catch let error as CancellationError {
        throw error
    } catch {
        throw ClientError(code(for: stage), stage: stage, message: "\(stage) failed", underlying: error)
    }
}

/// The code for an error of a plugin's own type: the transport lost the connection, a middleware failed, a store
/// failed to keep or read.
private func code(for stage: ClientError.Stage) -> ClientError.Code {
    switch stage {
    case .transport: .connectFailed
    case .cache, .credentials, .cookies: .storageFailed
    case .codec: .compressionFailed
    case .pipeline: .internalError
    default: .middlewareFailed
    }
}
