import Logging
import Synchronization

/// Keeps every log message, so that tests can count warnings.
final class LogRecorder: Sendable {
    private let entries = Mutex<[(Logger.Level, String)]>([])

    /// A logger that records into this recorder.
    var logger: Logger {
        var logger = Logger(label: "ProxyPACTests") { _ in RecordingLogHandler(recorder: self) }
        logger.logLevel = .trace
        return logger
    }

    /// The messages logged at `level`.
    func messages(at level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.0 == level }.map(\.1) }
    }

    fileprivate func record(_ level: Logger.Level, _ message: String) {
        entries.withLock { $0.append((level, message)) }
    }
}

private struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        recorder.record(event.level, "\(event.message)" + (event.metadata.map { " \($0)" } ?? ""))
    }
}
