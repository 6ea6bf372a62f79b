import HTTPCore

/// What a ``TerminalProgressBar`` shows, as a pure value: one line per request and direction, a total line per
/// direction for a queue, and the text to print. Times are offsets from the bar's creation.
struct ProgressBoard: Sendable {
    struct Key: Hashable, Sendable {
        let id: RequestID
        let direction: TransferDirection
    }

    struct Line: Sendable {
        var completed: Int64 = 0
        var expected: Int64?
        var started: Duration
        var updated: Duration
        var isDone: Bool {
            guard let expected else { return false }
            return completed >= expected
        }
    }

    /// A queue's total in one direction: its fraction, and the real bytes of its requests.
    struct Total: Sendable {
        var fraction = 0.0
        var bytes: Int64 = 0
        var started: Duration
        var isDone: Bool { fraction >= 1 }
    }

    let barWidth: Int
    private(set) var lines: [Key: Line] = [:]
    private(set) var order: [Key] = []
    private(set) var totals: [TransferDirection: Total] = [:]
    var labels: [RequestID: String] = [:]

    init(barWidth: Int) {
        self.barWidth = barWidth
    }

    /// Takes an event; returns the key of a request line that just completed.
    mutating func apply(_ event: ProgressEvent, at now: Duration) -> Key? {
        if event.isAggregate {
            var total = totals[event.direction] ?? Total(started: now)
            total.fraction = event.fractionCompleted ?? 0
            totals[event.direction] = total
            return nil
        }
        let key = Key(id: event.requestID, direction: event.direction)
        if lines[key] == nil {
            lines[key] = Line(started: now, updated: now)
            order.append(key)
        }
        let wasDone = lines[key]!.isDone
        lines[key]!.completed = event.completedBytes
        lines[key]!.expected = event.expectedBytes ?? lines[key]!.expected
        lines[key]!.updated = now
        totals[event.direction]?.bytes += event.byteDelta
        return !wasDone && lines[key]!.isDone ? key : nil
    }

    /// Removes a request's line.
    mutating func remove(_ key: Key) {
        lines[key] = nil
        order.removeAll { $0 == key }
    }

    /// Removes lines of unknown size that have not moved for `idle` (a finished chunked download).
    mutating func removeIdle(now: Duration, idle: Duration) {
        for key in order where lines[key].map({ $0.expected == nil && now - $0.updated >= idle }) ?? false {
            remove(key)
        }
    }

    /// The lines to draw: the newest `limit` request lines, then the totals of directions that moved bytes (a queue
    /// of `GET`s still counts upload units, which are not worth a line).
    func render(now: Duration, limit: Int) -> [String] {
        var out = order.suffix(limit).compactMap { key in lines[key].map { describe(key, $0, now: now) } }
        for direction in [TransferDirection.upload, .download] {
            if let total = totals[direction], total.bytes > 0 { out.append(describe(total, direction, now: now)) }
        }
        return out
    }

    func describe(_ key: Key, _ line: Line, now: Duration) -> String {
        let label = labels[key.id] ?? "#\(key.id)"
        let elapsed = (line.isDone ? line.updated : now) - line.started
        let rate = Self.rate(bytes: line.completed, over: elapsed)
        var text = "\(label) \(Self.arrow(key.direction))"
        if let expected = line.expected, expected > 0 {
            let fraction = min(1, Double(line.completed) / Double(expected))
            text +=
                " \(bar(fraction)) \(Self.percent(fraction))  \(Self.bytes(line.completed)) / \(Self.bytes(expected))"
        } else {
            text += " \(Self.bytes(line.completed))"
        }
        if let rate { text += "  \(Self.bytes(rate))/s" }
        if !line.isDone, let rate, rate > 0, let expected = line.expected, expected > line.completed {
            text += "  ETA \(Self.time(seconds: (expected - line.completed) / rate))"
        } else if line.isDone {
            text += "  in \(Self.time(seconds: Int64(Self.seconds(elapsed).rounded(.up))))"
        }
        return text
    }

    func describe(_ total: Total, _ direction: TransferDirection, now: Duration) -> String {
        let elapsed = Self.seconds(now - total.started)
        var text =
            "total \(Self.arrow(direction)) \(bar(total.fraction)) \(Self.percent(total.fraction))"
            + "  \(Self.bytes(total.bytes))"
        if let rate = Self.rate(bytes: total.bytes, over: now - total.started) { text += "  \(Self.bytes(rate))/s" }
        if total.fraction > 0, total.fraction < 1 {
            text += "  ETA \(Self.time(seconds: Int64((elapsed * (1 - total.fraction) / total.fraction).rounded(.up))))"
        }
        return text
    }

    private func bar(_ fraction: Double) -> String {
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]"
    }
}

extension ProgressBoard {
    static func arrow(_ direction: TransferDirection) -> String { direction == .upload ? "up" : "down" }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Bytes per second, once enough time has passed to say.
    static func rate(bytes: Int64, over elapsed: Duration) -> Int64? {
        let seconds = seconds(elapsed)
        guard seconds >= 0.05 else { return nil }
        return Int64(Double(bytes) / seconds)
    }

    /// `42%`.
    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded(.down)))%"
    }

    /// `512 B`, `1.5 KiB`, `12.0 MiB`, `3.2 GiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var unit = 0
        var scaled = count
        while scaled >= 1024, unit < units.count - 1 {
            scaled /= 1024
            unit += 1
        }
        guard unit > 0 else { return "\(count) B" }
        let divisor = Int64(1) << (10 * unit)
        let tenths = (count * 10 + divisor / 2) / divisor
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// `45s`, `3m05s`, `2h07m`.
    static func time(seconds: Int64) -> String {
        let seconds = max(0, seconds)
        if seconds < 60 { return "\(seconds)s" }
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if seconds < 3600 { return "\(seconds / 60)m\(two(seconds % 60))s" }
        return "\(seconds / 3600)h\(two(seconds % 3600 / 60))m"
    }
}
