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

    /// The inodes of sockets in state LISTEN (`0A`) on `port`, from `/proc/net/tcp` and `/proc/net/tcp6`.
    private static func listeningInodes(port: Int) -> Set<String> {
        let suffix = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let data = FileManager.default.contents(atPath: table) else { continue }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(suffix), fields[3] == "0A" else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        return inodes
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
            guard let data = FileManager.default.contents(atPath: "\(tasks)/\(id)/children") else { return [] }
            return String(decoding: data, as: UTF8.self).split(separator: " ").compactMap { pid_t($0) }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
