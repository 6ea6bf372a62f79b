import HTTPCore
import Synchronization

/// The steps that change files: each one that touches `entries/` runs under the directory's `flock`, and the
/// index is updated after it, never while the lock is held.
extension DiskCacheStore {
    /// The verified head stored under `hash`, from the index when the file on disk is the one it was read from.
    func currentHead(hash: String, key: String) throws -> HeadFile? {
        let headPath = directory.headPath(hash)
        guard let status = try POSIXFile.status(headPath) else {
            state.withLock { $0.index.remove(hash) }
            return nil
        }
        let known = state.withLock { state -> HeadFile? in
            guard let item = state.index.item(hash, identity: status.identity) else { return nil }
            state.index.use(hash)
            return item.file
        }
        if let known { return known.key == key ? known : nil }
        guard let (status, bytes) = try POSIXFile.contents(of: headPath, limit: HeadFile.maxSize) else { return nil }
        guard let bytes, let file = HeadFile(decoding: bytes),
            let body = try POSIXFile.status(directory.bodyPath(hash, file.bodyName)), body.size == file.bodyLength
        else {
            try discard(hash: hash, ifStill: status.identity)
            return nil
        }
        guard file.key == key else { return nil }  // another key with the same hash: not ours to judge
        state.withLock { $0.index.set(hash, file: file, identity: status.identity, headSize: status.size) }
        return file
    }

    /// Removes a head that failed its checks (and its body, when the head names one), unless another writer
    /// replaced it meanwhile.
    func discard(hash: String, ifStill identity: POSIXFile.Identity) throws {
        try directory.withLock {
            guard let found = try POSIXFile.contents(of: directory.headPath(hash), limit: HeadFile.maxSize),
                found.status.identity == identity
            else { return }
            try removeFiles(hash: hash)
        }
        state.withLock { $0.index.remove(hash, ifStill: identity) }
    }

    /// Publishes a committed body: moves it into place under a new version name, then replaces the head in one
    /// `rename`, then deletes the previous version's body. Under the lock, so two publishers never interleave.
    func publish(key: String, head: CachedResponseHead, body temporaryBody: String, length: Int64) throws {
        let hash = SHA256.hex(key)
        let file = HeadFile(key: key, bodyName: CacheDirectory.randomName(), bodyLength: length, head: head)
        let temporaryHead = directory.newTemporaryPath()
        try POSIXFile.writeNew(temporaryHead, file.encoded(), sync: configuration.synchronizesWrites)
        defer { POSIXFile.remove(temporaryHead) }
        let headPath = directory.headPath(hash)
        let bodyPath = directory.bodyPath(hash, file.bodyName)
        let status = try directory.withLock { () throws -> POSIXFile.Status? in
            let previous = try readHead(hash)
            try POSIXFile.move(temporaryBody, to: bodyPath)
            do {
                try POSIXFile.move(temporaryHead, to: headPath)
            } catch {
                POSIXFile.remove(bodyPath)
                throw error
            }
            if let previous { POSIXFile.remove(directory.bodyPath(hash, previous.bodyName)) }
            return try POSIXFile.status(headPath)
        }
        state.withLock { state in
            if let status {
                state.index.set(hash, file: file, identity: status.identity, headSize: status.size)
            } else {
                state.index.remove(hash)
            }
        }
    }

    /// Writes `head` over the entry's head, keeping its body, when the stored head is still `previous`.
    func replaceHead(with head: CachedResponseHead, key: String, ifStill previous: CachedResponseHead) throws {
        let hash = SHA256.hex(key)
        let headPath = directory.headPath(hash)
        let written = try directory.withLock { () throws -> (HeadFile, POSIXFile.Status)? in
            guard var file = try readHead(hash), file.key == key, file.head == previous,
                HeadFile.fits(key: key, head: head)  // else the stored head stays: the new one would not read back
            else { return nil }
            file.head = head
            let temporary = directory.newTemporaryPath()
            try POSIXFile.writeNew(temporary, file.encoded(), sync: configuration.synchronizesWrites)
            do {
                try POSIXFile.move(temporary, to: headPath)
            } catch {
                POSIXFile.remove(temporary)
                throw error
            }
            return try POSIXFile.status(headPath).map { (file, $0) }
        }
        guard let (file, status) = written else { return }
        state.withLock { $0.index.set(hash, file: file, identity: status.identity, headSize: status.size) }
    }

    /// Removes the entry under `hash`.
    func remove(hash: String) throws {
        try directory.withLock { try removeFiles(hash: hash) }
        state.withLock { $0.index.remove(hash) }
    }

    /// Removes every entry whose head matches, and every head that fails its checks.
    func removeEntries(where matches: (HeadFile) -> Bool) throws {
        let removed = try directory.withLock { () throws -> [String] in
            var removed: [String] = []
            for name in try POSIXFile.names(in: directory.entries) {
                guard let (hash, bodyName) = CacheDirectory.parse(name), bodyName == nil else { continue }
                let file = try readHead(hash)
                if file.map(matches) ?? true {
                    try removeFiles(hash: hash)
                    removed.append(hash)
                }
            }
            return removed
        }
        state.withLock { state in
            for hash in removed { state.index.remove(hash) }
        }
    }

    /// The head under `hash` if it passes its checks; call with the lock held.
    func readHead(_ hash: String) throws -> HeadFile? {
        try POSIXFile.contents(of: directory.headPath(hash), limit: HeadFile.maxSize)?.bytes
            .flatMap(HeadFile.init(decoding:))
    }

    /// Deletes the head under `hash` first (the entry is gone from then on), then the body it names; call with
    /// the lock held. A body whose head was unreadable is left to the next start's sweep.
    private func removeFiles(hash: String) throws {
        let file = try readHead(hash)
        POSIXFile.remove(directory.headPath(hash))
        if let file { POSIXFile.remove(directory.bodyPath(hash, file.bodyName)) }
    }
}
