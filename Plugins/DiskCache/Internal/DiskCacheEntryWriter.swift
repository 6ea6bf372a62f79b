import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams one entry's body into a temporary file (`tmp/<pid>-<random>`, mode 0600) and publishes it on
/// commit; nothing under `entries/` changes before then. An abort, a decline or a writer dropped without a commit
/// deletes the temporary file; a process killed mid-write leaves it in `tmp/`, where the next start sweeps it.
final class DiskCacheEntryWriter: CacheEntryWriter {
    private struct State {
        var fd: Int32
        var written: Int64 = 0
        /// Until a commit, abort or decline.
        var isOpen: Bool { fd >= 0 }
    }

    private let store: DiskCacheStore
    private let key: String
    private let head: CachedResponseHead
    private let temporaryPath: String
    private let state: Mutex<State>

    init(store: DiskCacheStore, key: String, head: CachedResponseHead) throws {
        self.store = store
        self.key = key
        self.head = head
        let (path, fd) = try store.directory.createTemporaryFile()
        self.temporaryPath = path
        self.state = Mutex(State(fd: fd))
    }

    deinit {
        discardTemporary()
    }

    func write(_ bytes: [UInt8]) async throws -> CacheWriteOutcome {
        let limit = store.configuration.maxEntrySize
        let error: Int32? = state.withLock { state in
            guard state.isOpen else { return ENOSPC }
            guard state.written + Int64(bytes.count) <= limit else { return EFBIG }
            if let error = POSIXFile.writeAll(state.fd, bytes) { return error }
            state.written += Int64(bytes.count)
            return nil
        }
        switch error {
        case nil:
            return .accepted
        case EFBIG?, ENOSPC?, EDQUOT?:  // over the cap, or the disk is full: not cached, but the transfer goes on
            discardTemporary()
            return .declined
        case let error?:
            discardTemporary()
            errno = error
            throw POSIXFile.failure("write", "write a cached body")
        }
    }

    func commit() async throws {
        let (fd, length) = state.withLock { state in
            defer { state.fd = -1 }
            return (state.fd, state.written)
        }
        guard fd >= 0 else {
            throw ClientError(.internalError, message: "Committed a cache entry that was declined or aborted")
        }
        defer { POSIXFile.remove(temporaryPath) }  // gone after the publish moved it; else the leftovers
        let synced = !store.configuration.synchronizesWrites || fsync(fd) == 0
        let failure = synced ? nil : POSIXFile.failure("fsync", "flush a cached body")
        _ = close(fd)
        if let failure { throw failure }
        try store.publish(key: key, head: head, body: temporaryPath, length: length)
        store.evictUnlessRunning()
    }

    func abort() async {
        discardTemporary()
    }

    /// Closes and deletes the temporary file, once.
    private func discardTemporary() {
        let fd = state.withLock { state in
            defer { state.fd = -1 }
            return state.fd
        }
        guard fd >= 0 else { return }
        _ = close(fd)
        POSIXFile.remove(temporaryPath)
    }
}
