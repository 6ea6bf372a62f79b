import HTTPCore

/// A queue's total progress in one direction, as a pure value (ASINetworkQueue's `bytesDownloadedSoFar` and
/// `totalBytesToDownload`, or the upload pair).
///
/// Counts are units: bytes in accurate mode, plus one unit for each request whose size is unknown (no
/// `Content-Length`, a chunked upload, no body at all); one unit per request in simple mode. A request that
/// finishes counts as complete, so the total reaches exactly 1.0 when every request finished. A request that fails
/// or is cancelled keeps only what it moved: its size stays in the total (one unit when unknown) and its done part
/// stays where it was, so the total never claims what did not arrive; the part it never moved leaves the total when
/// the queue is next used. Requests that are over are folded into two sums, so memory stays flat however many pass
/// through.
struct QueueProgressTally: Sendable, Equatable {
    /// One request that is not over yet.
    struct Item: Sendable, Equatable {
        /// The size known before the request's own reports: its body's length, or a HEAD pre-flight's answer.
        var base: Int64
        /// Whether the request counts as one unit whatever its bytes.
        var isUnit: Bool
        /// The size the request reported (the sum of its size increments).
        var reported: Int64 = 0
        /// The bytes the request reported (the sum of its byte deltas).
        var bytes: Int64 = 0
        /// Whether the size came only once the body had ended: the request stays at 0 until it is over, then
        /// counts one unit, like any request of unknown size.
        var isSizedAtEnd = false

        /// A known size wins over what the request reports on the way, so a redirect's own body does not move
        /// the total; a request sized by nothing beforehand takes its reported size.
        var size: Int64 {
            if isUnit { return 1 }
            if base > 0 { return base }
            return isSizedAtEnd ? 0 : max(reported, 0)
        }
        var done: Int64 { isUnit ? 0 : min(max(bytes, 0), size) }
    }

    private var items: [RequestID: Item] = [:]
    /// Requests that count one unit each and are tracked as a number, not as items (``addUnit()``): their share of
    /// the total is one unit each, none of it done until they end.
    private(set) var pendingUnits: Int64 = 0
    /// The total so far.
    private(set) var total: Int64 = 0
    /// The part of ``total`` done.
    private(set) var done: Int64 = 0
    /// The part of ``total`` that requests which failed or were cancelled never moved; it leaves the total when
    /// the queue is next used (``dropAbandoned()``).
    private(set) var abandoned: Int64 = 0

    /// The done part as a fraction: 0 while nothing is known, exactly 1 when every request finished.
    var fraction: Double {
        guard total > 0 else { return 0 }
        return done == total ? 1 : Double(done) / Double(total)
    }

    /// Adds a request. `size` is its known size in accurate mode, or `nil` when it counts as one unit.
    mutating func add(_ id: RequestID, size: Int64?, isUnit: Bool) {
        update(id) { $0 = Item(base: size ?? 0, isUnit: isUnit) }
    }

    /// Sets a request's size from a HEAD pre-flight: bytes when known, otherwise one unit.
    mutating func presize(_ id: RequestID, length: Int64?) {
        update(id) { item in
            if let length { item?.base = length } else { item?.isUnit = true }
        }
    }

    /// Applies a request's own progress event. A size announced only after its bytes have arrived (a body without
    /// `Content-Length`, sized at its end) makes the request one unit.
    mutating func apply(_ event: ProgressEvent) {
        update(event.requestID) { item in
            guard var current = item else { return }
            if current.reported == 0, current.bytes > 0, event.sizeIncrement > 0, event.byteDelta == 0 {
                current.isSizedAtEnd = true
            }
            current.reported += event.sizeIncrement
            current.bytes += event.byteDelta
            item = current
        }
    }

    /// Whether every request added is over, finished or not.
    var isIdle: Bool { items.isEmpty && pendingUnits == 0 }

    /// The request finished: it counts as complete, as one unit when its size was never known.
    mutating func complete(_ id: RequestID) {
        guard let item = items.removeValue(forKey: id) else { return }
        let size = max(item.size, 1)
        total += size - item.size
        done += size - item.done
    }

    /// The request failed or was cancelled: it keeps the bytes it moved, and its size stays in the total, as one
    /// unit (not done) when it was never known.
    mutating func abandon(_ id: RequestID) {
        guard let item = items.removeValue(forKey: id) else { return }
        let size = max(item.size, 1)
        total += size - item.size
        abandoned += size - item.done
    }

    /// Adds a request that counts as one unit whatever it reports, without an item: a queue in simple mode, whose
    /// requests' own events never reach the tally, counts its requests this way, so that adding and ending one is
    /// two additions instead of a dictionary entry (Docs/Decisions/0035-queue-workers.md, addendum). End it with
    /// ``completeUnit()`` or ``abandonUnit()``; it matches ``add(_:size:isUnit:)`` with `isUnit` followed by
    /// ``complete(_:)`` or ``abandon(_:)``.
    mutating func addUnit() {
        pendingUnits += 1
        total += 1
    }

    /// A request added with ``addUnit()`` finished: its unit is done.
    mutating func completeUnit() {
        guard pendingUnits > 0 else { return }
        pendingUnits -= 1
        done += 1
    }

    /// A request added with ``addUnit()`` failed or was cancelled: its unit stays in the total, not done.
    mutating func abandonUnit() {
        guard pendingUnits > 0 else { return }
        pendingUnits -= 1
        abandoned += 1
    }

    /// Takes out of the total what failed or cancelled requests never moved, keeping what they and every other
    /// request did move: a queue used again after a failure or a cancel can reach 1, and its total never falls
    /// back to zero (a multipart upload that sends a failed part again keeps the parts it sent).
    mutating func dropAbandoned() {
        total -= abandoned
        abandoned = 0
    }

    private mutating func update(_ id: RequestID, _ change: (inout Item?) -> Void) {
        var item = items[id]
        let before = item
        change(&item)
        guard item != before else { return }
        total += (item?.size ?? 0) - (before?.size ?? 0)
        done += (item?.done ?? 0) - (before?.done ?? 0)
        items[id] = item
    }
}
