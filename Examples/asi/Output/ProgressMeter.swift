import HTTPCore
import Synchronization
import TerminalProgress

/// curl's default progress meter for one transfer, on stderr: its two header lines when the transfer starts, then
/// a line of sizes, percentages, speeds and times, rewritten in place (each starts with a carriage return) at most
/// once a second, and ended with a line break when the transfer ends.
///
/// As in curl it is written whether or not stderr is a terminal (`2>log` keeps the header and the lines), unless
/// `-s`, and not when the body itself goes to the terminal. `-#` draws ``TerminalProgressBar`` instead.
final class ProgressMeter<C: Clock>: ProgressSink where C.Duration == Duration {
    /// curl's two header lines.
    static var header: String {
        "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
            + "                                 Dload  Upload   Total   Spent    Left  Speed\n"
    }

    /// What the meter has seen of the current attempt.
    struct Counts: Equatable {
        var downloaded: Int64 = 0
        var downloadSize: Int64?
        var uploaded: Int64 = 0
        var uploadSize: Int64?
    }

    private struct State {
        var counts = Counts()
        /// When the last line was written (since the start).
        var shown: Duration?
        /// `(time, bytes moved so far)` when each line of the last five seconds was written, for the current speed.
        var samples: [(at: Duration, bytes: Int64)] = []
        var finished = false
    }

    private let clock: C
    private let start: C.Instant
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// Starts the meter: writes the header and the first line.
    /// - Parameters:
    ///   - clock: The clock for speeds and times.
    ///   - write: Where the text goes (stderr).
    init(clock: C, write: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.start = clock.now
        self.write = write
        write(Self.header + (step(final: false) ?? ""))
    }

    /// Takes the transfer's bytes; writes a line when a second has passed since the last.
    func receive(_ event: ProgressEvent) {
        state.withLock { state in
            switch event.direction {
            case .download:
                state.counts.downloaded = event.completedBytes
                state.counts.downloadSize = event.expectedBytes
            case .upload:
                state.counts.uploaded = event.completedBytes
                state.counts.uploadSize = event.expectedBytes
            }
        }
        if let text = step(final: false) { write(text) }
    }

    /// Writes the last line and ends it; later events are ignored.
    func finish() {
        if let text = step(final: true) { write(text + "\n") }
    }

    /// The line to write now, if one is due (always when `final`, once).
    private func step(final: Bool) -> String? {
        let now = start.duration(to: clock.now)
        return state.withLock { state -> String? in
            guard !state.finished else { return nil }
            if final {
                state.finished = true
            } else if let shown = state.shown, now - shown < .seconds(1) {
                return nil
            }
            state.shown = now
            // One sample per line, as curl keeps one per second: a handful, however many events arrive.
            let moved = state.counts.downloaded + state.counts.uploaded
            state.samples.append((now, moved))
            state.samples.removeAll { now - $0.at > .seconds(5) }
            let first = state.samples[0]
            let window = now - first.at
            let current = window > .zero ? Self.perSecond(moved - first.bytes, window) : Self.perSecond(moved, now)
            return Self.line(state.counts, elapsed: now, currentSpeed: current)
        }
    }

    /// Bytes per second over `duration`, counted in whole milliseconds and at least one, as curl counts.
    static func perSecond(_ bytes: Int64, _ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return bytes * 1000 / milliseconds
    }

    /// One meter line, as curl 7.88's `progress_meter` formats it, starting with `\r`.
    /// - Parameters:
    ///   - counts: The bytes moved and the sizes known.
    ///   - elapsed: The time since the transfer started.
    ///   - currentSpeed: Bytes per second lately.
    /// - Returns: The line, without a line break.
    static func line(_ counts: Counts, elapsed: Duration, currentSpeed: Int64) -> String {
        let spent = elapsed.components.seconds
        let downloadSpeed = perSecond(counts.downloaded, elapsed)
        let uploadSpeed = perSecond(counts.uploaded, elapsed)
        var estimate: Int64 = 0
        var downloadPercent: Int64 = 0
        var uploadPercent: Int64 = 0
        if let size = counts.uploadSize, uploadSpeed > 0 {
            estimate = max(estimate, size / uploadSpeed)
            uploadPercent = percent(counts.uploaded, of: size)
        }
        if let size = counts.downloadSize, downloadSpeed > 0 {
            estimate = max(estimate, size / downloadSpeed)
            downloadPercent = percent(counts.downloaded, of: size)
        }
        let expected = (counts.uploadSize ?? counts.uploaded) + (counts.downloadSize ?? counts.downloaded)
        let totalPercent = percent(counts.downloaded + counts.uploaded, of: expected)
        return "\r" + padded(totalPercent, 3) + " " + size5(expected) + "  " + padded(downloadPercent, 3) + " "
            + size5(counts.downloaded) + "  " + padded(uploadPercent, 3) + " " + size5(counts.uploaded) + "  "
            + size5(downloadSpeed) + "  " + size5(uploadSpeed) + " " + time8(estimate) + " " + time8(spent) + " "
            + time8(estimate > 0 ? estimate - spent : 0) + " " + size5(currentSpeed)
    }

    /// `part` as a percentage of `whole` (curl's integer arithmetic); 0 when `whole` is 0.
    static func percent(_ part: Int64, of whole: Int64) -> Int64 {
        if whole > 10_000 { return part / (whole / 100) }
        return whole > 0 ? part * 100 / whole : 0
    }

    /// A byte count in five characters, as curl's `max5data`: `12345`, ` 292k`, `12.3M`, ` 456M`, `12.3G`, ...
    static func size5(_ bytes: Int64) -> String {
        let kilo: Int64 = 1024
        let mega = kilo * kilo
        let giga = mega * kilo
        let tera = giga * kilo
        switch bytes {
        case ..<100_000: return padded(bytes, 5)
        case ..<(10_000 * kilo): return padded(bytes / kilo, 4) + "k"
        case ..<(100 * mega): return padded(bytes / mega, 2) + ".\((bytes % mega) / (mega / 10))M"
        case ..<(10_000 * mega): return padded(bytes / mega, 4) + "M"
        case ..<(100 * giga): return padded(bytes / giga, 2) + ".\((bytes % giga) / (giga / 10))G"
        case ..<(10_000 * giga): return padded(bytes / giga, 4) + "G"
        case ..<(10_000 * tera): return padded(bytes / tera, 4) + "T"
        default: return padded(bytes / (tera * kilo), 4) + "P"
        }
    }

    /// Seconds in eight characters, as curl's `time2str`: `--:--:--` for none, ` 0:01:05`, `  3d 04h`, `   120d`.
    static func time8(_ seconds: Int64) -> String {
        guard seconds > 0 else { return "--:--:--" }
        let hours = seconds / 3600
        if hours <= 99 {
            let minutes = (seconds % 3600) / 60
            return padded(hours, 2) + ":" + zeroPadded(minutes) + ":" + zeroPadded(seconds % 60)
        }
        let days = seconds / 86400
        if days <= 999 { return padded(days, 3) + "d " + zeroPadded((seconds % 86400) / 3600) + "h" }
        return padded(days, 7) + "d"
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func zeroPadded(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : String(value)
    }
}

extension ProgressMeter where C == ContinuousClock {
    /// Starts a meter on stderr that reads time from the `ContinuousClock`.
    convenience init() {
        self.init(clock: ContinuousClock()) { Output.writeError($0) }
    }
}
