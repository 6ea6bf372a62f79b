import HTTPCore

/// What a ``QueueState`` schedules: a request as the queue knows it. The queue schedules its requests' handles
/// (``RequestQueue/Member``), so that a request that starts or fails needs no lookup from an ID to its handle; the
/// tests schedule bare ``RequestID``s.
protocol QueueMember: Hashable, Sendable {
    /// Orders members by when they were added: running requests are cancelled in this order.
    var addedOrder: UInt64 { get }
}

extension RequestID: QueueMember {
    var addedOrder: UInt64 { rawValue }
}

/// The scheduling rules of a ``RequestQueue`` as a pure value: which requests start, which are cancelled, and
/// when the queue has drained. The queue holds it behind a lock and carries out the returned ``Actions``.
struct QueueState<Member: QueueMember>: Sendable {
    /// What to do once the lock is released.
    struct Actions: Equatable, Sendable {
        /// Requests whose HEAD pre-flight starts now.
        var preflights: [Member] = []
        /// Requests that start now; usually none or one, kept inline.
        var starts = InlineList<Member>()
        /// Requests that never ran and fail now, in order. Each still counts as outstanding until the queue reports
        /// it with ``pendingFailureReported(_:)``, so the drain is never announced before their callbacks.
        var failedWhilePending: [Member] = []
        /// Running requests and pre-flights to cancel.
        var cancelRunning: [Member] = []
        /// Every request added has finished or failed: the queue's `queueFinished` is due.
        var drained = false
    }

    /// The most requests (and pre-flights) running at once.
    let width: Int
    /// Whether a failure (a cancel included) cancels every other request.
    let cancelsAllOnFailure: Bool
    /// Whether requests are held back until ``go()``.
    private(set) var isSuspended = true
    /// Requests added and not yet finished or failed (ASINetworkQueue's `requestsCount`).
    private(set) var outstanding = 0
    /// Requests and pre-flights running now.
    var running: Int { runningMembers.count }
    /// The requests waiting to start, in order.
    var waiting: [Member] { pendingStarts.elements }

    private var pendingPreflights = FIFO()
    private var pendingStarts = FIFO()
    private var preflightsOutstanding: Set<Member> = []
    private var runningMembers: Set<Member> = []
    /// Running requests and pre-flights already told to cancel.
    private var cancelRequested: Set<Member> = []

    init(width: Int, cancelsAllOnFailure: Bool) {
        self.width = width
        self.cancelsAllOnFailure = cancelsAllOnFailure
    }

    /// Adds a request. With `preflight`, a HEAD request runs first, and no request starts while a pre-flight is
    /// waiting or running, so the total is known before any body moves.
    mutating func add(_ id: Member, preflight: Bool) -> Actions {
        outstanding += 1
        if preflight {
            pendingPreflights.append(id)
            preflightsOutstanding.insert(id)
        }
        pendingStarts.append(id)
        return schedule()
    }

    /// Lets requests start (ASINetworkQueue's `go`).
    mutating func go() -> Actions {
        isSuspended = false
        return schedule()
    }

    /// Stops starting requests; running ones go on.
    mutating func suspend() {
        isSuspended = true
    }

    /// A pre-flight ended, answered or failed: its request stays pending and starts like any other.
    mutating func preflightEnded(_ id: Member) -> Actions {
        runningMembers.remove(id)
        cancelRequested.remove(id)
        preflightsOutstanding.remove(id)
        return schedule()
    }

    /// A started request ended; `failed` includes a cancel.
    mutating func ended(_ id: Member, failed: Bool) -> Actions {
        guard runningMembers.remove(id) != nil else { return Actions() }
        cancelRequested.remove(id)
        return settle(failed: failed)
    }

    /// A request returned in ``Actions/failedWhilePending`` has been reported failed: it is over now.
    mutating func pendingFailureReported(_ id: Member) -> Actions {
        settle(failed: true)
    }

    /// A request that has not started is cancelled: it fails now.
    /// Returns `nil` when the request is not waiting (it is running or over).
    mutating func failPending(_ id: Member) -> Actions? {
        guard pendingStarts.remove(id) else { return nil }
        _ = pendingPreflights.remove(id)
        preflightsOutstanding.remove(id)
        var actions = schedule()  // when it was the last pre-flight out, requests may start
        actions.failedWhilePending = [id]
        if runningMembers.contains(id), cancelRequested.insert(id).inserted {
            actions.cancelRunning.append(id)  // its pre-flight is running and no longer needed
        }
        return actions
    }

    /// Cancels everything: running requests are cancelled and pending ones fail at once
    /// (ASINetworkQueue's `cancelAllOperations`).
    mutating func cancelAll() -> Actions {
        var actions = Actions()
        actions.cancelRunning = runningMembers.subtracting(cancelRequested).sorted { $0.addedOrder < $1.addedOrder }
        cancelRequested.formUnion(runningMembers)
        actions.failedWhilePending = pendingStarts.removeAll()
        _ = pendingPreflights.removeAll()
        preflightsOutstanding = []
        return actions
    }

    private mutating func settle(failed: Bool) -> Actions {
        outstanding -= 1
        var actions = failed && cancelsAllOnFailure && outstanding > 0 ? cancelAll() : schedule()
        actions.drained = outstanding == 0
        return actions
    }

    /// Starts what the width allows: pre-flights first, then requests once no pre-flight is left.
    private mutating func schedule() -> Actions {
        var actions = Actions()
        guard !isSuspended else { return actions }
        while runningMembers.count < width {
            if let id = pendingPreflights.popFirst() {
                runningMembers.insert(id)
                actions.preflights.append(id)
            } else if preflightsOutstanding.isEmpty, let id = pendingStarts.popFirst() {
                runningMembers.insert(id)
                actions.starts.append(id)
            } else {
                break
            }
        }
        return actions
    }
}

extension QueueState {
    /// A first-in, first-out list of members with O(1) removal from the front.
    struct FIFO: Sendable {
        private var items: [Member] = []
        private var head = 0

        var isEmpty: Bool { head == items.count }

        /// The members, in order.
        var elements: [Member] { Array(items[head...]) }

        mutating func append(_ id: Member) { items.append(id) }

        mutating func popFirst() -> Member? {
            guard head < items.count else { return nil }
            let id = items[head]
            head += 1
            if head > 64, head * 2 > items.count {
                items.removeFirst(head)
                head = 0
            }
            return id
        }

        /// Removes `id` wherever it is; returns whether it was there.
        mutating func remove(_ id: Member) -> Bool {
            guard let index = items[head...].firstIndex(of: id) else { return false }
            items.remove(at: index)
            return true
        }

        /// Removes and returns everything, in order.
        mutating func removeAll() -> [Member] {
            let rest = Array(items[head...])
            items = []
            head = 0
            return rest
        }
    }
}
