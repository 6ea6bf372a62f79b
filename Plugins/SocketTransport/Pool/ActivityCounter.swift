import Synchronization

/// How many connections of a transport are checked out (connecting, sending or receiving) right now.
///
/// A request waits inline (see ``InlineWait``) only while it is the transport's only active exchange: with
/// others active, blocking a thread of the cooperative pool would hold up their work.
final class ActivityCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// One more connection checked out.
    func begin() {
        count.add(1, ordering: .relaxed)
    }

    /// One connection checked in or closed.
    func end() {
        count.subtract(1, ordering: .relaxed)
    }

    /// Whether at most one connection is checked out.
    var isAlone: Bool { count.load(ordering: .relaxed) <= 1 }
}
