import Synchronization

/// The read buffers of one event loop's connections, lent out for one read at a time.
///
/// A connection holds a buffer only from the `recv` (or `SSL_read`) that fills it until its bytes are parsed:
/// never while it waits for the socket, nor while it is idle in the pool. The parser copies out everything it
/// keeps (body bytes, a partial line), so the bytes are dead once parsed. A thousand connections waiting for
/// their answers so hold no buffer at all, where each used to hold 16 KiB (decision 0038): the buffers in use are
/// as many as threads read at the same time, and a few of them are kept for the next reads.
///
/// Every buffer has ``bufferSize`` bytes, the most one read asks for; a read touches only the pages it fills, so
/// a 1 KiB answer costs one page of memory however large the buffer is. Taking and giving back is one short lock
/// each, and allocates nothing once the pool has its buffers.
final class ReadBufferPool: Sendable {
    /// The size of every buffer: the largest read (``Connection`` grows its reads up to it).
    static let bufferSize = 256 * 1024
    /// Buffers given back beyond this many are freed.
    static let keptBuffers = 8

    private struct State {
        /// The free buffers' addresses (as integers: an address is not `Sendable`, and only the pool owns them).
        var free: [UInt] = []
        /// The buffers that exist: free or lent out.
        var existing = 0
        /// The most that existed at once.
        var mostExisting = 0
    }

    private let state = Mutex(State())

    init() {}

    deinit {
        state.withLock { state in
            for address in state.free { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() }
        }
    }

    /// A buffer of ``bufferSize`` bytes, the caller's until it gives it back with ``giveBack(_:)``.
    func take() -> UnsafeMutableRawPointer {
        let address = state.withLock { state -> UInt? in
            if let address = state.free.popLast() { return address }
            state.existing += 1
            state.mostExisting = max(state.mostExisting, state.existing)
            return nil
        }
        if let address, let buffer = UnsafeMutableRawPointer(bitPattern: address) { return buffer }
        return .allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    /// Takes back a buffer from ``take()``; its bytes are no longer read.
    func giveBack(_ buffer: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: buffer)
        let kept = state.withLock { state -> Bool in
            guard state.free.count < Self.keptBuffers else {
                state.existing -= 1
                return false
            }
            if state.free.capacity == 0 { state.free.reserveCapacity(Self.keptBuffers) }
            state.free.append(address)
            return true
        }
        if !kept { buffer.deallocate() }
    }

    /// How many buffers exist now (free or lent out), the most that existed at once, and how many are free; for
    /// tests.
    var counts: (existing: Int, mostExisting: Int, free: Int) {
        state.withLock { ($0.existing, $0.mostExisting, $0.free.count) }
    }
}
