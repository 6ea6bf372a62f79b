import Dispatch
public import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress sink that draws bars on standard error: one line per request and direction with bytes, rate and
/// time left, plus a total line per direction when it is a ``RequestQueue``'s sink.
///
/// ```swift
/// let bar = TerminalProgressBar()
/// let queue = RequestQueue(client: client, configuration: .init(showsAccurateProgress: true, progress: bar))
/// // ... add requests, go(), wait ...
/// bar.finish()
/// ```
///
/// On a terminal the lines are redrawn in place at most once per ``Configuration/redrawInterval``. When standard
/// error is not a terminal (`isatty` is false: a pipe, a file, CI logs) it prints plain lines instead: one when a
/// request completes, and the totals at most once per ``Configuration/plainInterval``. Drawing happens on a
/// serial dispatch queue, so ``receive(_:)`` returns quickly.
public final class TerminalProgressBar<C: Clock>: ProgressSink where C.Duration == Duration {
    /// How the bar looks and how often it draws.
    public struct Configuration: Sendable {
        /// The shortest time between two redraws on a terminal. Default 100 ms.
        public var redrawInterval: Duration
        /// The shortest time between two plain total lines when not on a terminal. Default 1 s.
        public var plainInterval: Duration
        /// How many request lines are shown at once (the newest). Default 8.
        public var maxRequestLines: Int
        /// The width of the bar in characters. Default 24.
        public var barWidth: Int
        /// Whether to draw in place; `nil` asks `isatty` about the file descriptor. Default `nil`.
        public var isTerminal: Bool?
        /// The file descriptor written to. Default 2 (standard error).
        public var fileDescriptor: Int32

        /// Creates a configuration.
        /// - Parameters:
        ///   - redrawInterval: The shortest time between redraws on a terminal.
        ///   - plainInterval: The shortest time between plain total lines.
        ///   - maxRequestLines: How many request lines are shown.
        ///   - barWidth: The bar's width in characters.
        ///   - isTerminal: Whether to draw in place; `nil` detects it.
        ///   - fileDescriptor: Where to write.
        public init(
            redrawInterval: Duration = .milliseconds(100),
            plainInterval: Duration = .seconds(1),
            maxRequestLines: Int = 8,
            barWidth: Int = 24,
            isTerminal: Bool? = nil,
            fileDescriptor: Int32 = 2
        ) {
            self.redrawInterval = redrawInterval
            self.plainInterval = plainInterval
            self.maxRequestLines = maxRequestLines
            self.barWidth = barWidth
            self.isTerminal = isTerminal
            self.fileDescriptor = fileDescriptor
        }
    }

    private struct State {
        var board: ProgressBoard
        var lastDraw: Duration?
        var drawnLines = 0
        var finished = false
    }

    private let clock: C
    private let start: C.Instant
    private let configuration: Configuration
    private let isTerminal: Bool
    private let output: @Sendable (String) -> Void
    private let writer = DispatchQueue(label: "asikit.progress-bar")
    private let state: Mutex<State>

    /// Creates a bar that reads time from `clock` (inject a manual clock in tests).
    /// - Parameters:
    ///   - clock: The clock for rates, times left and redraw limits.
    ///   - configuration: How the bar looks and how often it draws.
    ///   - output: Takes the text to write; by default it is written to the configuration's file descriptor.
    public init(
        clock: C,
        configuration: Configuration = Configuration(),
        output: (@Sendable (String) -> Void)? = nil
    ) {
        self.clock = clock
        self.start = clock.now
        self.configuration = configuration
        let descriptor = configuration.fileDescriptor
        self.isTerminal = configuration.isTerminal ?? (isatty(descriptor) == 1)
        self.output = output ?? { text in Self.writeAll(text, to: descriptor) }
        self.state = Mutex(State(board: ProgressBoard(barWidth: max(1, configuration.barWidth))))
    }

    /// Names a request's lines (the default is `#` and its ID), for example after the file it downloads.
    /// - Parameters:
    ///   - label: The name.
    ///   - requestID: The request.
    public func setLabel(_ label: String, for requestID: RequestID) {
        state.withLock { $0.board.labels[requestID] = label }
    }

    /// Takes an event, and redraws when the last drawing is old enough or a request completed.
    /// - Parameter event: The event.
    public func receive(_ event: ProgressEvent) {
        let now = start.duration(to: clock.now)
        state.withLock { state in
            guard !state.finished else { return }
            let completed = state.board.apply(event, at: now)
            if isTerminal {
                if let completed, let line = state.board.lines[completed] {
                    // A finished request leaves a permanent line above the live block.
                    var text = clearBlock(&state)
                    text += state.board.describe(completed, line, now: now) + "\n"
                    state.board.remove(completed)
                    emit(text + drawBlock(&state, now: now))
                    state.lastDraw = now
                } else if due(state.lastDraw, now, configuration.redrawInterval) || isFinalTotal(event) {
                    state.board.removeIdle(now: now, idle: .seconds(2))
                    emit(clearBlock(&state) + drawBlock(&state, now: now))
                    state.lastDraw = now
                }
            } else {
                if let completed, let line = state.board.lines[completed] {
                    emit(state.board.describe(completed, line, now: now) + "\n")
                    state.board.remove(completed)
                }
                if event.isAggregate, due(state.lastDraw, now, configuration.plainInterval) || isFinalTotal(event),
                    let total = state.board.totals[event.direction], total.bytes > 0
                {
                    emit(state.board.describe(total, event.direction, now: now) + "\n")
                    state.lastDraw = now
                }
                state.board.removeIdle(now: now, idle: .seconds(2))
            }
        }
    }

    /// Draws the final state and stops drawing; later events are ignored. Returns once everything is written.
    public func finish() {
        let now = start.duration(to: clock.now)
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            if isTerminal { emit(clearBlock(&state) + drawBlock(&state, now: now)) }
        }
        writer.sync {}
    }

    private func isFinalTotal(_ event: ProgressEvent) -> Bool {
        event.isAggregate && event.fractionCompleted == 1
    }

    private func due(_ last: Duration?, _ now: Duration, _ interval: Duration) -> Bool {
        guard let last else { return true }
        return now - last >= interval
    }

    /// Moves the cursor up over the live block and clears it.
    private func clearBlock(_ state: inout State) -> String {
        guard state.drawnLines > 0 else { return "" }
        let text = "\u{1B}[\(state.drawnLines)A\r\u{1B}[J"
        state.drawnLines = 0
        return text
    }

    private func drawBlock(_ state: inout State, now: Duration) -> String {
        let lines = state.board.render(now: now, limit: configuration.maxRequestLines)
        state.drawnLines = lines.count
        return lines.map { $0 + "\n" }.joined()
    }

    /// Hands text to the writer queue (called under the lock, so frames keep their order).
    private func emit(_ text: String) {
        guard !text.isEmpty else { return }
        let output = self.output
        writer.async { output(text) }
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return  // the terminal went away; progress is not worth failing for
            }
            offset += written
        }
    }
}

extension TerminalProgressBar where C == ContinuousClock {
    /// Creates a bar on standard error that reads time from the `ContinuousClock`.
    /// - Parameters:
    ///   - configuration: How the bar looks and how often it draws.
    ///   - output: Takes the text to write; by default it is written to the configuration's file descriptor.
    public convenience init(
        configuration: Configuration = Configuration(),
        output: (@Sendable (String) -> Void)? = nil
    ) {
        self.init(clock: ContinuousClock(), configuration: configuration, output: output)
    }
}
