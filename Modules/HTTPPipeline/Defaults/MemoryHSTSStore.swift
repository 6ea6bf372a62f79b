import FoundationEssentials
public import HTTPCore
import Synchronization

/// An ``HSTSStore`` in memory, for the life of the process; the `HSTSFile` plug-in keeps one in curl's file.
///
/// ```swift
/// let client = Client(transport: .posix(), hsts: MemoryHSTSStore())
/// ```
public final class MemoryHSTSStore: HSTSStore {
    private let storage: Mutex<HSTSStorage>

    /// Creates a store.
    /// - Parameter entries: Hosts known from the start (a preload list).
    public init(_ entries: [HSTSEntry] = []) {
        var storage = HSTSStorage()
        let now = Date()
        for entry in entries { storage.update(entry, at: now) }
        self.storage = Mutex(storage)
    }

    /// The entry whose policy covers `host` now, if any.
    /// - Parameter host: The host name.
    /// - Returns: The entry.
    public func entry(covering host: String) async -> HSTSEntry? {
        let now = Date()
        return storage.withLock { $0.entry(covering: host, at: now) }
    }

    /// Records an entry; an expired one removes the host.
    /// - Parameter entry: The entry.
    public func update(_ entry: HSTSEntry) async {
        let now = Date()
        storage.withLock { $0.update(entry, at: now) }
    }

    /// Every entry known, expired ones included until they are replaced.
    public var entries: [HSTSEntry] { storage.withLock { Array($0.entries.values) } }

    /// Whether no host is known.
    public var isKnownEmpty: Bool { storage.withLock { $0.isEmpty } }
}
