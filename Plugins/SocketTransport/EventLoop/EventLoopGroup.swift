import HTTPCore
import Synchronization

/// A fixed number of ``EventLoop`` threads, started on first use and handed out round-robin to new connections.
final class EventLoopGroup: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        /// The first loop's hand-off executor (``executorHandOff()``), made with the loops.
        var handOff: CallerHandOff?
        var next = 0
        var isShutDown = false
    }

    private let count: Int
    private let busyPoll: UInt64
    private let state = Mutex(State())

    /// Creates the group; no thread starts until ``next()``.
    /// - Parameters:
    ///   - count: How many loops to run, at least 1.
    ///   - busyPoll: The longest each loop polls before sleeping, in nanoseconds (``BusyPoll``); 0 never polls.
    init(count: Int, busyPoll: UInt64 = 0) {
        precondition(count >= 1, "an event loop group needs at least one loop")
        self.count = count
        self.busyPoll = busyPoll
    }

    /// The loop for a new connection, starting the loops when none runs yet.
    /// - Returns: A running loop.
    /// - Throws: ``ClientError`` after ``shutDown()``, or when a loop cannot start.
    func next() throws -> EventLoop {
        try state.withLock { state in
            try start(&state)
            defer { state.next = (state.next + 1) % state.loops.count }
            return state.loops[state.next]
        }
    }

    /// The first loop, started when none runs yet: the one ``POSIXTransport/taskExecutor`` runs jobs on.
    /// - Returns: The loop, or `nil` after ``shutDown()`` or when it cannot start.
    func executorLoop() -> EventLoop? {
        try? state.withLock { state in
            try start(&state)
            return state.loops[0]
        }
    }

    /// The executor through which requests that ran on ``executorLoop()`` go back to their callers, the loops started
    /// when none runs yet.
    /// - Returns: The first loop's ``CallerHandOff``, or `nil` after ``shutDown()`` or when the loops cannot start.
    func executorHandOff() -> CallerHandOff? {
        try? state.withLock { state in
            try start(&state)
            return state.handOff
        }
    }

    private func start(_ state: inout State) throws {
        guard !state.isShutDown else { throw EventLoop.shutDownError }
        guard state.loops.isEmpty else { return }
        for index in 0..<count {
            state.loops.append(try EventLoop(name: "asi-loop-\(index)", busyPoll: busyPoll))
        }
        state.handOff = CallerHandOff(loop: state.loops[0])
    }

    /// How many loop threads run (0 before the first request), for tests.
    var startedLoopCount: Int { state.withLock { $0.loops.count } }

    /// Stops every loop; idempotent. Tasks waiting on a loop fail with a "shut down" error.
    func shutDown() {
        let loops = state.withLock { state -> [EventLoop] in
            state.isShutDown = true
            defer {
                state.loops = []
                state.handOff = nil
            }
            return state.loops
        }
        for loop in loops { loop.stop() }
    }
}
