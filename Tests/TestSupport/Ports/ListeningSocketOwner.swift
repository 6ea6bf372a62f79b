import FoundationEssentials
import Glibc

/// Tells whether a process holds the listening socket on a port, from `/proc`.
///
/// A harness picks a free port, closes it and tells the server; in that gap another test's server (a corpus
/// runner's python origin, another peer) can take the port. The new server then fails to bind and retries for a
/// while, and a readiness probe on the port is answered by the other server. Checking that the child itself holds
/// the listening socket makes the probe name the right server.
enum ListeningSocketOwner {
    /// Whether `pid` (or a process whose parent is `pid`) has a descriptor on a socket listening on `port`.
    /// - Parameters:
    ///   - port: The TCP port.
    ///   - pid: The server's process id (the master, for servers that fork workers).
    /// - Returns: `true` when one of its descriptors is that socket; `false` when none is, or `/proc` is unreadable.
    static func holds(port: Int, pid: pid_t) -> Bool {
        let inodes = listeningInodes(port: port)
        guard !inodes.isEmpty else { return false }
        return ([pid] + children(of: pid)).contains { process in
            socketInodes(of: process).contains { inodes.contains($0) }
        }
    }

    /// The inodes of sockets in state LISTEN (`0A`) on `port`, from `/proc/net/tcp` and `/proc/net/tcp6`. The
    /// kernel lists listening sockets first, so reading stops at the first line in another state: on a busy
    /// machine the tables hold thousands of `TIME_WAIT` lines after them.
    private static func listeningInodes(port: Int) -> Set<String> {
        let suffix = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            forEachLine(of: table) { line in
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[0] != "sl" else { return true }  // the header
                guard fields[3] == "0A" else { return false }
                if fields[1].hasSuffix(suffix) { inodes.insert(String(fields[9])) }
                return true
            }
        }
        return inodes
    }

    /// Calls `body` with each line of a `/proc` file until it returns `false`. A `/proc` file's size reads as 0,
    /// so it is read in chunks to its end rather than by its size.
    private static func forEachLine(of path: String, _ body: (Substring) -> Bool) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            pending += buffer[..<count]
            guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            let text = String(decoding: pending[...lastNewline], as: UTF8.self)
            pending.removeSubrange(...lastNewline)
            for line in text.split(separator: "\n") where !body(line) { return }
        }
        if !pending.isEmpty { _ = body(Substring(String(decoding: pending, as: UTF8.self))) }
    }

    /// The whole of a `/proc` file. Its size reads as 0, so it is read until the end rather than by its size (a
    /// read by size would see only the first page of `/proc/net/tcp`, which on a busy machine lists thousands of
    /// connections).
    private static func procFile(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
        }
    }

    /// The socket inodes among the descriptors of `pid` (`socket:[N]` links in `/proc/PID/fd`).
    private static func socketInodes(of pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.compactMap { name in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name),
                target.hasPrefix("socket:["), target.hasSuffix("]")
            else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        }
    }

    /// The direct children of `pid`, from `/proc/PID/task/*/children`.
    private static func children(of pid: pid_t) -> [pid_t] {
        let tasks = "/proc/\(pid)/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return [] }
        return ids.flatMap { id -> [pid_t] in
            guard let data = procFile("\(tasks)/\(id)/children") else { return [] }
            return String(decoding: data, as: UTF8.self).split(separator: " ").compactMap { pid_t($0) }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
