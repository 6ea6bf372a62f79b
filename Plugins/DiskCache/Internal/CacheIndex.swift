/// What a store knows about the entries on disk, for fast lookups and least-recently-used eviction.
///
/// Each item remembers the identity of the head file it was read from; a lookup that finds another file on disk
/// (replaced or removed by another process) reads it again. Recency is a counter, seeded from the head files'
/// access times when the directory is scanned.
struct CacheIndex {
    struct Item {
        var file: HeadFile
        var identity: POSIXFile.Identity
        var size: Int64
        var lastUse: UInt64
    }

    private(set) var items: [String: Item] = [:]
    private(set) var totalSize: Int64 = 0
    private var clock: UInt64 = 0

    /// Records an entry as just used.
    mutating func set(_ hash: String, file: HeadFile, identity: POSIXFile.Identity, headSize: Int64) {
        remove(hash)
        clock += 1
        let item = Item(file: file, identity: identity, size: file.bodyLength + headSize, lastUse: clock)
        items[hash] = item
        totalSize += item.size
    }

    /// The item for `hash`, when it was read from the file with `identity`.
    func item(_ hash: String, identity: POSIXFile.Identity) -> Item? {
        guard let item = items[hash], item.identity == identity else { return nil }
        return item
    }

    mutating func use(_ hash: String) {
        clock += 1
        items[hash]?.lastUse = clock
    }

    mutating func remove(_ hash: String) {
        if let old = items.removeValue(forKey: hash) { totalSize -= old.size }
    }

    /// Removes `hash` only while it still stands for the file with `identity`.
    mutating func remove(_ hash: String, ifStill identity: POSIXFile.Identity) {
        if items[hash]?.identity == identity { remove(hash) }
    }

    mutating func removeAll() {
        items = [:]
        totalSize = 0
    }

    /// An entry chosen for eviction, with what identifies its files.
    struct Victim {
        var hash: String
        var bodyName: String
        var identity: POSIXFile.Identity
    }

    /// The least recently used entries to remove so that the total is at most `limit`.
    func victims(toFit limit: Int64) -> [Victim] {
        guard totalSize > limit else { return [] }
        var excess = totalSize - limit
        var victims: [Victim] = []
        for (hash, item) in items.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
            guard excess > 0 else { break }
            victims.append(Victim(hash: hash, bodyName: item.file.bodyName, identity: item.identity))
            excess -= item.size
        }
        return victims
    }
}
