/// `-m`: the most time one URL's transfer may take, retries included.
enum Deadline {
    /// Runs `body`, cancelling it and throwing ``TransferFailure`` 28 when `seconds` elapse first.
    static func run(seconds: Double?, _ body: @escaping @Sendable () async throws -> Void) async throws {
        guard let seconds else { return try await body() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                throw TransferFailure.maxTimeElapsed(seconds)
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }
}
