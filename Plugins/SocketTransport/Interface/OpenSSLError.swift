import COpenSSL

/// The errors OpenSSL reported for a failed TLS operation, kept as a ``ClientError``'s `underlying` error.
public struct OpenSSLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// OpenSSL's error queue, oldest first, each entry as `ERR_error_string_n` formats it.
    public var queue: [String]

    /// Creates the error.
    /// - Parameter queue: The error strings, oldest first.
    public init(queue: [String]) {
        self.queue = queue
    }

    /// The queue joined with `; `, or a note that OpenSSL reported nothing.
    public var description: String {
        queue.isEmpty ? "OpenSSL reported no error" : queue.joined(separator: "; ")
    }

    /// Takes every entry off this thread's OpenSSL error queue.
    static func drain() -> OpenSSLError {
        var queue: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            ERR_error_string_n(code, &buffer, buffer.count)
            queue.append(String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        return OpenSSLError(queue: queue)
    }

    /// The reason of the first entry (the text after the last `:`), for short messages.
    var firstReason: String? {
        guard let first = queue.first else { return nil }
        return first.split(separator: ":").last.map(String.init)
    }
}
