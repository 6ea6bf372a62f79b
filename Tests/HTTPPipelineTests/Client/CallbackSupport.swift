import Dispatch
import Synchronization

/// Collects values from callbacks.
final class HopRecorder: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.withLock { $0 } }
}

extension DispatchQueue {
    /// Returns once everything enqueued before has run.
    func drain() async {
        await withCheckedContinuation { continuation in async { continuation.resume() } }
    }
}
