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
        let code: ClientError.Code = stage == .transport ? .connectFailed : .storageFailed
        throw ClientError(code, stage: stage, message: "\(stage) failed", underlying: error)
    }
}
