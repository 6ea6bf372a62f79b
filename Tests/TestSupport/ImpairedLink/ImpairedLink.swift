import FoundationEssentials
import Glibc
import Synchronization

/// Two network namespaces joined by a link the test controls: the `ImpairedLink` helper (Tests/ImpairedLink/main.c)
/// makes them, forwards every packet between their TUN devices and applies delay, jitter, loss, reordering,
/// duplication, corruption, a bandwidth cap, a blackhole, flaps and MTU changes on command (decision 0029).
///
/// The server side is ``serverAddress`` (10.33.0.1), the client side ``clientAddress`` (10.33.0.2);
/// ``blackholedAddress`` is routed to the link and never answers. Children join a side with ``launcher(_:)``
/// (`nsenter --net=…`); in-process servers are made there with ``onServerSide(_:)``. Nothing leaves the machine.
///
/// Not `Sendable`: one test owns it. The helper is stopped on deinit (and stops itself after 15 minutes).
package final class ImpairedLink {
    /// A direction of the link.
    package enum Direction: String, Sendable {
        /// Client to server.
        case c2s
        /// Server to client.
        case s2c
        /// Both (for ``set(_:_:)``).
        case both
    }

    /// A side of the link.
    package enum Side: Sendable {
        /// The server's namespace.
        case server
        /// The client's namespace.
        case client
    }

    /// What the link counted in one direction.
    package struct Stats: Sendable {
        /// IP packets that arrived.
        package var packets = 0
        /// TCP payload bytes that arrived (retransmissions included).
        package var payload = 0
        /// TCP payload bytes forwarded.
        package var forwarded = 0
        /// Packets dropped (loss, blackhole, a full rate queue, a down device).
        package var dropped = 0
        /// Packets with a flipped bit.
        package var corrupted = 0
        /// Packets sent twice.
        package var duplicated = 0
        /// Packets held back so later ones overtook them.
        package var reordered = 0
        /// The longest packet that arrived since the last MTU change, in bytes.
        package var largest = 0
    }

    /// The server's address, inside the server namespace.
    package static let serverAddress = "10.33.0.1"
    /// The client's address, inside the client namespace.
    package static let clientAddress = "10.33.0.2"
    /// An address routed to the link that nobody has: SYNs to it vanish.
    package static let blackholedAddress = "10.33.0.3"

    /// The helper beside the running test executable (`swift build --build-tests` builds it).
    package static let executable: String = siblingExecutable("ImpairedLink")

    /// `nil` when namespaces and TUN devices can be made here; otherwise why not (the helper's `--probe`), which
    /// the suites show as their reason to skip.
    package static let unavailableReason: String? = {
        guard access(executable, X_OK) == 0 else {
            return "the ImpairedLink helper is not at \(executable): run swift build --build-tests"
        }
        guard ChildProcess.find("nsenter") != nil else { return "nsenter (util-linux) is not installed" }
        guard let directory = try? makeTemporaryDirectory(prefix: "asikit-link-probe") else { return "no temp dir" }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        guard let probe = try? ChildProcess(executable: executable, arguments: ["--probe"],
                                            logPath: directory + "/probe.log") else { return "cannot start it" }
        let status = probe.waitForExit()
        if status == 0 { return nil }
        let log = trimmed(probe.logTail)
        return "network namespaces with TUN devices are not allowed here (\(log.isEmpty ? "exit \(status)" : log))"
    }()

    /// Whether the impaired-link suites can run here.
    package static var isAvailable: Bool { unavailableReason == nil }

    /// The helper's working directory (control socket, log).
    package let directory: String
    private let process: ChildProcess
    private let controlPath: String
    /// `/proc/PID/fd/N` of the server namespace.
    package private(set) var serverNamespace = ""
    /// `/proc/PID/fd/N` of the client namespace.
    package private(set) var clientNamespace = ""

    /// Starts the helper and waits (up to 20 s) until it answers.
    /// - Throws: ``PeerError`` when it cannot be started or does not answer.
    package init() throws {
        directory = try makeTemporaryDirectory(prefix: "asikit-link")
        controlPath = directory + "/control"
        process = try ChildProcess(executable: Self.executable, arguments: [controlPath, "900"],
                                   logPath: directory + "/link.log")
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            if let info = try? command("info") {
                let words = info.split(separator: " ")
                guard words.count == 4 else { throw PeerError.startFailed("ImpairedLink info: \(info)", log: "") }
                serverNamespace = String(words[1])
                clientNamespace = String(words[3])
                return
            }
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw PeerError.startFailed("ImpairedLink", log: process.logTail)
            }
            usleep(20_000)
        }
    }

    deinit {
        process.terminate(grace: .seconds(1))
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends one control command (see Tests/ImpairedLink/main.c) and returns its answer after `ok`.
    /// - Parameter line: The command.
    /// - Returns: The rest of the answer.
    /// - Throws: ``PeerError`` when the helper does not answer or answers with an error.
    @discardableResult
    package func command(_ line: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw PeerError.startFailed("socket: \(errno)", log: "") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in controlPath.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else { throw PeerError.startFailed("connect \(controlPath): \(errno)", log: "") }
        let request = Array((line + "\n").utf8)
        _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            answer += chunk[..<count]
        }
        let text = trimmed(String(decoding: answer, as: UTF8.self))
        guard text.hasPrefix("ok") else { throw PeerError.startFailed("ImpairedLink \(line): \(text)", log: "") }
        return trimmed(String(text.dropFirst(2)))
    }

    /// Sets impairments, for example `set(.both, "delay_ms=50 loss=1")`; keys not named keep their values.
    /// - Parameters:
    ///   - direction: Which direction.
    ///   - settings: `KEY=VALUE` pairs (delay_ms jitter_ms loss dup corrupt reorder reorder_ms rate queue blackhole
    ///     blackhole_after max_packet drop_fin).
    /// - Throws: ``PeerError`` for an unknown key.
    package func set(_ direction: Direction, _ settings: String) throws {
        try command("set \(direction.rawValue) \(settings)")
    }

    /// What the link counted in one direction so far.
    /// - Parameter direction: ``Direction/c2s`` or ``Direction/s2c``.
    /// - Returns: The counters.
    /// - Throws: ``PeerError`` when the helper does not answer.
    package func stats(_ direction: Direction) throws -> Stats {
        let words = try command("stats \(direction.rawValue)").split(separator: " ").map(String.init)
        var values: [String: Int] = [:]
        for index in stride(from: 0, to: words.count - 1, by: 2) { values[words[index]] = Int(words[index + 1]) }
        return Stats(packets: values["packets"] ?? 0, payload: values["payload"] ?? 0,
                     forwarded: values["forwarded"] ?? 0, dropped: values["dropped"] ?? 0,
                     corrupted: values["corrupted"] ?? 0, duplicated: values["duplicated"] ?? 0,
                     reordered: values["reordered"] ?? 0, largest: values["largest"] ?? 0)
    }

    /// The link's own time (since it started) when a direction's forwarded TCP payload first reached `bytes`
    /// (16 KiB resolution), or `nil` when it has not yet.
    /// - Parameters:
    ///   - direction: ``Direction/c2s`` or ``Direction/s2c``.
    ///   - bytes: The payload count.
    /// - Returns: The time.
    /// - Throws: ``PeerError`` when the helper does not answer.
    package func crossing(_ direction: Direction, bytes: Int) throws -> Duration? {
        guard let nanoseconds = Int64(try command("crossing \(direction.rawValue) \(bytes)")), nanoseconds >= 0
        else { return nil }
        return .nanoseconds(nanoseconds)
    }

    /// Waits until a direction has forwarded `bytes`, polling the link's counters every 5 ms (up to `limit`) on a
    /// thread of its own: a cooperative pool that other tests keep busy cannot make the wait late.
    /// - Returns: Whether it did.
    package func waitForForwarded(_ direction: Direction, bytes: Int, limit: Duration = .seconds(300)) async throws
        -> Bool
    {
        try await when(direction, hasForwarded: bytes, limit: limit, run: [])
    }

    /// Once a direction has forwarded `bytes`, sends `steps` in order, each followed by its pause: a flap is
    /// `[("link down", .seconds(3)), ("link up", .zero)]`. It all runs on a thread of its own, so the moment and
    /// the length of an outage do not depend on the cooperative pool (which a busy machine can stall for seconds).
    /// - Parameters:
    ///   - direction: ``Direction/c2s`` or ``Direction/s2c``.
    ///   - bytes: The forwarded TCP payload to wait for.
    ///   - limit: How long to wait for it.
    ///   - steps: Control commands and the pause after each.
    /// - Returns: Whether the count was reached (the steps are sent only then).
    /// - Throws: ``PeerError`` when the helper does not answer or refuses a step.
    package func when(
        _ direction: Direction, hasForwarded bytes: Int, limit: Duration = .seconds(300),
        run steps: [(command: String, pause: Duration)]
    ) async throws -> Bool {
        try await offPool { [self] in
            let deadline = ContinuousClock.now + limit
            while try stats(direction).forwarded < bytes {
                guard ContinuousClock.now < deadline else { return false }
                usleep(5_000)
            }
            for step in steps {
                try command(step.command)
                let (seconds, attoseconds) = step.pause.components
                if step.pause > .zero { usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000)) }
            }
            return true
        }
    }

    /// Waits until a direction's counters satisfy `condition`, polling every 5 ms (up to `limit`) on a thread of
    /// its own, like ``when(_:hasForwarded:limit:run:)``.
    /// - Parameters:
    ///   - direction: ``Direction/c2s`` or ``Direction/s2c``.
    ///   - limit: How long to wait.
    ///   - condition: What the counters must show.
    /// - Returns: Whether they did.
    /// - Throws: ``PeerError`` when the helper does not answer.
    package func waitFor(
        _ direction: Direction, limit: Duration = .seconds(300), _ condition: @escaping (Stats) -> Bool
    ) async throws -> Bool {
        try await offPool { [self] in
            let deadline = ContinuousClock.now + limit
            while !condition(try stats(direction)) {
                guard ContinuousClock.now < deadline else { return false }
                usleep(5_000)
            }
            return true
        }
    }

    /// The command line prefix that runs a program in one side's namespace.
    /// - Parameter side: The side.
    /// - Returns: `nsenter --net=PATH --`.
    package func launcher(_ side: Side) -> [String] {
        [ChildProcess.find("nsenter") ?? "/usr/bin/nsenter",
         "--net=\(side == .server ? serverNamespace : clientNamespace)", "--"]
    }

    /// Runs `body` on a thread of its own that has joined the server namespace, so that sockets it makes (a
    /// `LoopbackServer` listening on ``serverAddress``) live there. The thread ends when `body` returns.
    /// - Parameter body: What to make there.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``PeerError`` when the namespace cannot be joined.
    package func onServerSide<T>(_ body: @escaping () throws -> T) throws -> T {
        try on(.server, body)
    }

    /// Runs `body` on a thread of its own that has joined one side's namespace: sockets it makes, and threads it
    /// starts (a transport's event loops), live there. The thread ends when `body` returns.
    /// - Parameters:
    ///   - side: The side.
    ///   - body: What to make there.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``PeerError`` when the namespace cannot be joined.
    package func on<T>(_ side: Side, _ body: @escaping () throws -> T) throws -> T {
        let path = side == .server ? serverNamespace : clientNamespace
        let result = Mutex<Result<Handoff<T>, any Error>?>(nil)
        let work = Handoff(value: body)
        startThread {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            defer { if fd >= 0 { close(fd) } }
            if fd < 0 || joinNetworkNamespace(fd) != 0 {
                result.withLock { $0 = .failure(PeerError.startFailed("setns \(path): \(errno)", log: "")) }
            } else {
                let value = Result { Handoff(value: try work.value()) }
                result.withLock { $0 = value }
            }
        }
        // The body only binds a socket or starts threads: a short wait, polled so no semaphore is needed.
        while result.withLock({ $0 == nil }) { usleep(1000) }
        return try result.withLock { $0! }.get().value
    }

    /// What names one side's namespace (`net:[4026532…]`), to compare with ``currentThreadNamespace()``.
    /// - Parameter side: The side.
    /// - Returns: The name, or `nil` when it cannot be read.
    package func namespaceID(_ side: Side) -> String? {
        namespaceLink(side == .server ? serverNamespace : clientNamespace)
    }
}

/// The network namespace of the calling thread (`net:[4026532…]`): the check that keeps an in-process client from
/// sending to 10.33.0.1 from the host's namespace, where the address could be routed off the machine.
/// - Returns: The name, or `nil` when it cannot be read.
package func currentThreadNamespace() -> String? {
    namespaceLink("/proc/thread-self/ns/net")
}

/// What a namespace link names (`net:[4026532xyz]`), or `nil`.
private func namespaceLink(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The text without leading and trailing spaces and newlines.
private func trimmed(_ text: String) -> String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }
    return String(text.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
}

/// `setns(fd, CLONE_NEWNET)` for the calling thread. Glibc's module map hides `setns` (it is `_GNU_SOURCE`), so it
/// is looked up by name.
private func joinNetworkNamespace(_ fd: Int32) -> Int32 {
    typealias SetNS = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(nil, "setns") else { return -1 }
    let cloneNewNet: Int32 = 0x4000_0000
    return unsafeBitCast(symbol, to: SetNS.self)(fd, cloneNewNet)
}
