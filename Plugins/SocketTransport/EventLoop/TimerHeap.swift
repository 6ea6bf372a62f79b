/// A binary min-heap of deadlines for the handles an ``EventLoop`` must wake when they time out.
///
/// A handle has at most one live entry (see ``IOHandle``); stale entries are skipped when they come due, so
/// entries are never searched for or removed from the middle.
struct TimerHeap {
    struct Entry {
        var deadline: UInt64
        var handle: IOHandle
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, if any.
    var earliest: UInt64? { entries.first?.deadline }

    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry when it is due at `now`.
    mutating func popDue(now: UInt64) -> Entry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        let last = entries.removeLast()
        guard !entries.isEmpty else { return first }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count && entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count && entries[right].deadline < entries[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }

    mutating func removeAll() {
        entries.removeAll()
    }
}
