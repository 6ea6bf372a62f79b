import Synchronization

/// A list of chunks handed out once each, in order.
final class ChunkList: Sendable {
    private let state: Mutex<(chunks: [[UInt8]], index: Int)>

    init(_ chunks: [[UInt8]]) {
        state = Mutex((chunks, 0))
    }

    func pop() -> [UInt8]? {
        state.withLock { state in
            guard state.index < state.chunks.count else { return nil }
            defer { state.index += 1 }
            return state.chunks[state.index]
        }
    }
}
