import HTTPCore
import HTTPPipeline
import Synchronization

/// `-Z`: runs the URLs through a ``RequestQueue``, at most `--parallel-max` at once, with the queue's
/// aggregated progress on the bar. Each body is delivered when its transfer ends (in the order they end); a body
/// for stdout is held in memory until then. `-m` limits the whole run.
struct ParallelTransfer {
    let context: TransferContext

    private struct Entry {
        let target: Target
        let record: TransferRecord
    }

    /// Runs every target.
    /// - Returns: The exit code of the last transfer that failed, or 0.
    func run(_ targets: [Target]) async -> Int32 {
        let queue = RequestQueue(
            client: context.client,
            configuration: RequestQueue.Configuration(
                maxConcurrentRequests: context.parallelMax, cancelsAllOnFailure: false,
                showsAccurateProgress: context.bar != nil, progress: context.bar))
        var entries: [RequestID: Entry] = [:]
        var code: Int32 = 0
        for target in targets {
            let record = TransferRecord(url: target.url, bar: context.bar, forwards: false)
            do {
                var request = try context.builder.make(for: target)
                request.options.progress = record
                entries[queue.add(request).requestID] = Entry(target: target, record: record)
            } catch {
                code = finish(record, TransferFailure(error))
            }
        }
        let results = queue.results
        let expired = ExpiryFlag()
        queue.go()
        await withTaskGroup(of: Void.self) { group in
            if let maxTime = context.maxTime {
                group.addTask {
                    guard (try? await Task.sleep(for: .milliseconds(Int64(maxTime * 1000)))) != nil else { return }
                    expired.value.store(true, ordering: .relaxed)
                    queue.cancelAll()
                }
            }
            for await result in results {
                guard let entry = entries[result.requestID] else { continue }
                var failure: TransferFailure?
                do {
                    try Delivery(context: context).deliver(
                        try result.response(), for: entry.target, record: entry.record)
                } catch {
                    failure = TransferFailure(error)
                    if let seconds = context.maxTime, expired.value.load(ordering: .relaxed), failure?.exitCode == 42 {
                        failure = .maxTimeElapsed(seconds)
                    }
                }
                if let failure { code = self.finish(entry.record, failure) } else { _ = self.finish(entry.record, nil) }
            }
            group.cancelAll()
        }
        return code
    }

    /// Ends a record: reports its failure and prints `-w`. Returns its exit code.
    private func finish(_ record: TransferRecord, _ failure: TransferFailure?) -> Int32 {
        record.finish(failure)
        if let failure { context.report(failure) }
        context.writeOut?.print(record.snapshot)
        return failure?.exitCode ?? 0
    }
}

/// Set when `-m` elapsed in `-Z` mode, so the cancelled transfers report a timeout.
private final class ExpiryFlag: Sendable {
    let value = Atomic<Bool>(false)
}
