import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DiskCacheStore {
    /// Keeps the store under ``Configuration/maxSize``: removes the least recently used entries whenever a
    /// commit takes it over, so the request that committed does not wait for the removal. Returns when its task
    /// is cancelled or the store is shut down; a second concurrent call returns at once. While it is not running,
    /// the committing writer removes them itself after publishing its entry.
    /// - Throws: ``ClientError`` (`storageFailed`) when the directory cannot be prepared.
    public func run() async throws {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let claimed = state.withLock { state in
            guard state.runner == nil, !state.isShutDown else { return false }
            state.runner = continuation
            return true
        }
        guard claimed else { return }
        defer { state.withLock { $0.runner = nil } }
        try prepare()
        continuation.yield()
        for await _ in stream {
            try? evict()
        }
    }

    /// Stops ``run()``. Idempotent; nothing needs flushing (every commit is on disk when it returns), and the
    /// store keeps working for requests that come later.
    public func shutdown() async throws {
        let runner = state.withLock { state in
            state.isShutDown = true
            defer { state.runner = nil }
            return state.runner
        }
        runner?.finish()
    }

    /// After a commit: wakes ``run()`` when the store is over its size, or evicts here when it is not running.
    func evictUnlessRunning() {
        let (runner, isOver) = state.withLock { ($0.runner, $0.index.totalSize > configuration.maxSize) }
        guard isOver else { return }
        if let runner { runner.yield() } else { try? evict() }
    }

    /// Removes the least recently used entries until the known size fits ``Configuration/maxSize``; an entry
    /// another process replaced since this store read it is left alone.
    func evict() throws {
        let victims = state.withLock { $0.index.victims(toFit: configuration.maxSize) }
        guard !victims.isEmpty else { return }
        let removed = try directory.withLock { () throws -> [CacheIndex.Victim] in
            try victims.filter { victim in
                let headPath = directory.headPath(victim.hash)
                guard try POSIXFile.status(headPath)?.identity == victim.identity else { return false }
                POSIXFile.remove(headPath)
                POSIXFile.remove(directory.bodyPath(victim.hash, victim.bodyName))
                return true
            }
        }
        state.withLock { state in
            for victim in removed { state.index.remove(victim.hash, ifStill: victim.identity) }
        }
    }

    /// Scans the directory once, on the store's first use: creates it, sweeps abandoned temporary files, removes
    /// corrupt heads, orphaned bodies and (with ``Configuration/clearsSessionEntriesAtStart``) session entries,
    /// and builds the index, oldest access first.
    func prepare() throws {
        try preparation.withLock { isPrepared in
            guard !isPrepared else { return }
            try directory.create()
            try sweepTemporaryFiles()
            let index = try directory.withLock { try scanEntries() }
            state.withLock { $0.index = index }
            isPrepared = true
            try evict()
        }
    }

    /// Builds the index from `entries/`; call with the lock held.
    private func scanEntries() throws -> CacheIndex {
        var heads: [(hash: String, file: HeadFile, status: POSIXFile.Status)] = []
        var bodies: [(hash: String, bodyName: String)] = []
        for name in try POSIXFile.names(in: directory.entries) {
            guard let (hash, bodyName) = CacheDirectory.parse(name) else { continue }
            if let bodyName {
                bodies.append((hash, bodyName))
                continue
            }
            let headPath = directory.headPath(hash)
            guard let (status, bytes) = try POSIXFile.contents(of: headPath, limit: HeadFile.maxSize) else { continue }
            guard let bytes, let file = HeadFile(decoding: bytes),
                !(configuration.clearsSessionEntriesAtStart && file.head.storagePolicy == .sessionDuration),
                try POSIXFile.status(directory.bodyPath(hash, file.bodyName))?.size == file.bodyLength
            else {
                POSIXFile.remove(headPath)
                continue
            }
            heads.append((hash, file, status))
        }
        let published = Set(heads.map { "\($0.hash).\($0.file.bodyName)" })
        for body in bodies where !published.contains("\(body.hash).\(body.bodyName)") {
            POSIXFile.remove(directory.bodyPath(body.hash, body.bodyName))
        }
        var index = CacheIndex()
        for head in heads.sorted(by: { $0.status.accessed < $1.status.accessed }) {
            index.set(head.hash, file: head.file, identity: head.status.identity, headSize: head.status.size)
        }
        return index
    }

    /// Deletes temporary files whose writer process is gone (killed mid-write), or that are a day old.
    private func sweepTemporaryFiles() throws {
        let me = getpid()
        let dayAgo = (Int64(time(nil)) - 86_400) * 1_000_000_000
        for name in try POSIXFile.names(in: directory.temporary) {
            let path = "\(directory.temporary)/\(name)"
            let writer = CacheDirectory.writerProcess(ofTemporary: name)
            if let writer, writer == me || POSIXFile.processExists(writer) {
                guard let status = try POSIXFile.status(path), status.modified < dayAgo else { continue }
            }
            POSIXFile.remove(path)
        }
    }
}
