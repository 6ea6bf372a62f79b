public import FoundationEssentials

/// The HSTS storage model every ``HSTSStore`` wraps: known hosts by name, RFC 6797's update and matching rules,
/// and a size limit. A value type; a store keeps one behind its lock.
public struct HSTSStorage: Sendable, Hashable {
    /// The entries by host.
    public private(set) var entries: [String: HSTSEntry] = [:]
    /// The most hosts kept; when full, the entry that expires first is dropped. Default 10,000.
    public var maxEntries: Int
    /// Moves on every change, so a persistent store knows when it has something to write.
    public private(set) var revision: UInt64 = 0

    /// Creates an empty storage.
    /// - Parameter maxEntries: The most hosts kept.
    public init(maxEntries: Int = 10_000) {
        self.maxEntries = max(maxEntries, 1)
    }

    /// Whether no host is known.
    public var isEmpty: Bool { entries.isEmpty }

    /// The entry whose policy covers `host` at `now`: the host's own, else the nearest superdomain's that includes
    /// subdomains (RFC 6797 §8.2).
    /// - Parameters:
    ///   - host: A host name.
    ///   - now: The current time.
    /// - Returns: The entry, or `nil` when requests to `host` are not upgraded.
    public func entry(covering host: String, at now: Date) -> HSTSEntry? {
        var name = HSTSEntry.normalized(host)
        while true {
            if let entry = entries[name], entry.covers(host, at: now) { return entry }
            guard let dot = name.firstIndex(of: ".") else { return nil }
            name = String(name[name.index(after: dot)...])
        }
    }

    /// Records what a `Strict-Transport-Security` field said (RFC 6797 §8.1): an entry that has already expired
    /// (`max-age=0`) removes the host's entry; another one adds or replaces it.
    /// - Parameters:
    ///   - entry: The entry the field describes.
    ///   - now: The current time.
    public mutating func update(_ entry: HSTSEntry, at now: Date) {
        guard entry.expires > now else {
            if entries.removeValue(forKey: entry.host) != nil { revision &+= 1 }
            return
        }
        guard entries[entry.host] != entry else { return }
        if entries[entry.host] == nil, entries.count >= maxEntries {
            removeExpired(at: now)
            if entries.count >= maxEntries, let first = entries.values.min(by: { $0.expires < $1.expires }) {
                entries.removeValue(forKey: first.host)
            }
        }
        entries[entry.host] = entry
        revision &+= 1
    }

    /// Removes the entries that have expired.
    /// - Parameter now: The current time.
    public mutating func removeExpired(at now: Date) {
        let before = entries.count
        entries = entries.filter { $0.value.expires > now }
        if entries.count != before { revision &+= 1 }
    }

    /// Removes the host's own entry, if any.
    /// - Parameter host: The host name.
    public mutating func remove(_ host: String) {
        if entries.removeValue(forKey: HSTSEntry.normalized(host)) != nil { revision &+= 1 }
    }
}
