package import FoundationEssentials
import Glibc

/// A scripted HTTP/2 server for faults no real server makes on demand, on 127.0.0.1 and a free port: python's `h2`
/// state machine (hyper-h2, from PyPI) over plain sockets, cleartext HTTP/2 with prior knowledge.
///
/// Paths: `/ok` answers `ok`; `/reset` resets its stream (`RST_STREAM`, `INTERNAL_ERROR`); `/flood` answers a head
/// of about 100 KiB of fields. Modes: ``Mode/normal``; ``Mode/goAway(after:)``, where the first connection sends
/// `GOAWAY` as its Nth request arrives (last stream id: that request's), answers it and drops every later stream;
/// ``Mode/silent``, which never sends SETTINGS nor anything else; ``Mode/refusingUploads(_:times:)``, where the
/// first uploads are refused before the server reads them. `/upload` reads the whole request body and answers
/// `COUNT SUM` (its length and the sum of its bytes modulo 2³²). The output has a line per event: `CONNECTION n`,
/// `REQUEST n path`, `PING n`, `GOAWAY n code` (the client's), `RESET n stream` (the client's), `ENDED n` (the
/// connection is over). ``connections`` counts accepted connections,
/// ``refusedUploads`` the refusals. More paths (trailers, floods, starvation, idle closes) are in
/// `H2FaultServer+Paths.swift`.
package final class H2FaultServer {
    /// How the server misbehaves.
    package enum Mode {
        case normal
        case goAway(after: Int)
        case silent
        /// The first `times` requests for `/upload` are refused unprocessed: by `RST_STREAM` with `REFUSED_STREAM`
        /// (``Refusal/reset``), or by a `GOAWAY` whose last stream id is below theirs (``Refusal/goAway``).
        case refusingUploads(Refusal, times: Int)
    }

    /// How ``Mode/refusingUploads(_:times:)`` refuses a stream.
    package enum Refusal: String {
        case reset, goAway = "goaway"
    }

    /// The python with `h2`, or `nil`.
    package static let python: String? = {
        for candidate in [ChildProcess.find("python3"), "/usr/bin/python3"].compactMap({ $0 }) {
            let probe = try? ChildProcess.run(candidate, ["-c", PythonModules.probe(["h2"])], logPath: "/dev/null")
            if probe == 0 { return candidate }
        }
        return nil
    }()
    /// Whether the tests can run: python's `h2` is installed, or `ASI_REQUIRE_PEERS=1` asks for a failure.
    package static let shouldRun = python != nil || PeerEnvironment.peersRequired

    /// The port.
    package let port: Int
    private let directory: String
    private let process: ChildProcess

    private init(port: Int, directory: String, process: ChildProcess) {
        self.port = port
        self.directory = directory
        self.process = process
    }

    deinit {
        stop()
    }

    /// Starts the server and waits for its port.
    /// - Parameter mode: How it misbehaves.
    /// - Returns: The running server.
    /// - Throws: ``PeerError`` when python's `h2` is missing or the server does not start.
    package static func start(_ mode: Mode) throws -> H2FaultServer {
        guard let python else { throw PeerError.notInstalled("python3 with h2 (pip install h2)") }
        let directory = try makeTemporaryDirectory(prefix: "asikit-h2-fault")
        try Data(script.utf8).write(to: URL(filePath: directory + "/server.py"))
        let argument: String
        switch mode {
        case .normal: argument = "normal"
        case .goAway(let after): argument = "goaway:\(after)"
        case .silent: argument = "silent"
        case .refusingUploads(let refusal, let times): argument = "refuse-\(refusal.rawValue):\(times)"
        }
        let process = try ChildProcess(executable: python, arguments: ["-u", directory + "/server.py", argument],
                                       logPath: directory + "/output.log")
        let deadline = ContinuousClock.now + PeerEnvironment.startupTimeout
        while ContinuousClock.now < deadline {
            let output = String(decoding: FileManager.default.contents(atPath: directory + "/output.log") ?? Data(),
                                as: UTF8.self)
            if let line = output.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
                let port = Int(line.dropFirst(5))
            {
                return H2FaultServer(port: port, directory: directory, process: process)
            }
            guard process.isRunning else { throw PeerError.startFailed("h2 fault server", log: process.logTail) }
            usleep(20_000)
        }
        process.terminate()
        throw PeerError.notReady("h2 fault server", log: process.logTail)
    }

    /// A URL on the server: `http://127.0.0.1:PORT/path`.
    package func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many connections the server accepted so far.
    package var connections: Int {
        output.split(separator: "\n").filter { $0.hasPrefix("CONNECTION ") }.count
    }

    /// What the server printed so far.
    package var output: String {
        String(decoding: FileManager.default.contents(atPath: directory + "/output.log") ?? Data(), as: UTF8.self)
    }

    /// How many `/upload` streams the server refused so far.
    package var refusedUploads: Int {
        output.split(separator: "\n").filter { $0.hasPrefix("REFUSED ") }.count
    }

    /// Stops the server and deletes its directory. Safe to call more than once.
    package func stop() {
        process.terminate(grace: .seconds(1))
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static let script = #"""
        import socket, sys, threading
        import h2.config, h2.connection, h2.errors, h2.events

        mode = sys.argv[1]
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print("PORT", listener.getsockname()[1], flush=True)
        lock = threading.Lock()
        accepted = [0]
        refusals = [int(mode.split(":")[1]) if mode.startswith("refuse-") else 0]

        \#(extraPaths)

        def serve(sock, number):
            print("CONNECTION", number, flush=True)
            if mode == "silent":
                while sock.recv(65536):
                    pass
                return
            goaway_after = int(mode.split(":")[1]) if mode.startswith("goaway:") else 0
            conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False))
            conn.initiate_connection()
            if mode.startswith("refuse-"):
                # The body bytes a refused stream already sent are never acknowledged: a window wide enough for them.
                conn.increment_flow_control_window(1 << 24)
            sock.sendall(conn.data_to_send())
            requests = 0
            uploads = {}  # stream id -> [length, sum of bytes] of an upload being read
            last = None  # the GOAWAY's last stream id, once sent
            after = None  # what an extra path asked for once its answer is sent
            deaf = False  # sends nothing any more (a dead peer): PINGs go unanswered
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                try:
                    events = conn.receive_data(data)
                except Exception as error:
                    print("ERROR", error, flush=True)
                    break
                for event in events:
                    if isinstance(event, h2.events.PingReceived):
                        print("PING", number, flush=True)
                    if isinstance(event, h2.events.ConnectionTerminated):
                        print("GOAWAY", number, int(event.error_code), flush=True)
                    if isinstance(event, h2.events.StreamReset):
                        print("RESET", number, event.stream_id, flush=True)
                    if isinstance(event, h2.events.DataReceived) and event.stream_id in uploads:
                        uploads[event.stream_id][0] += len(event.data)
                        uploads[event.stream_id][1] = (uploads[event.stream_id][1] + sum(event.data)) & 0xffffffff
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                        continue
                    if isinstance(event, h2.events.StreamEnded) and event.stream_id in uploads:
                        count, total = uploads.pop(event.stream_id)
                        body = ("%d %d" % (count, total)).encode()
                        conn.send_headers(event.stream_id, [(":status", "200"), ("content-length", str(len(body)))])
                        conn.send_data(event.stream_id, body, end_stream=True)
                        continue
                    if not isinstance(event, h2.events.RequestReceived):
                        continue
                    sid = event.stream_id
                    requests += 1
                    path = dict((k.decode() if isinstance(k, bytes) else k, v.decode() if isinstance(v, bytes) else v)
                                for k, v in event.headers)[":path"]
                    print("REQUEST", number, path, flush=True)
                    if path.startswith("/upload"):
                        with lock:
                            refuse = refusals[0] > 0
                            refusals[0] -= 1 if refuse else 0
                        if not refuse:
                            uploads[sid] = [0, 0]
                        elif mode.startswith("refuse-goaway"):
                            print("REFUSED", sid, flush=True)
                            last = max(sid - 2, 0)
                            conn.close_connection(last_stream_id=last)
                            break
                        else:
                            print("REFUSED", sid, flush=True)
                            conn.reset_stream(sid, error_code=h2.errors.ErrorCodes.REFUSED_STREAM)
                    elif path.startswith("/reset"):
                        conn.reset_stream(sid, error_code=h2.errors.ErrorCodes.INTERNAL_ERROR)
                    elif path.startswith("/flood"):
                        fields = [(":status", "200")] + [("x-flood-%d" % i, "a" * 1000) for i in range(100)]
                        conn.send_headers(sid, fields, end_stream=True)
                    else:
                        action = extra_path(conn, sock, sid, path)
                        if action is None:
                            conn.send_headers(sid, [(":status", "200"), ("content-length", "2")])
                            conn.send_data(sid, b"ok", end_stream=True)
                        elif action != "handled":
                            after = action
                    if number == 1 and goaway_after and requests == goaway_after:
                        # Answered; every later stream is above the last stream id and never processed.
                        last = sid
                        conn.close_connection(last_stream_id=sid)
                        break
                pending = conn.data_to_send()
                if not deaf:
                    sock.sendall(pending)
                if after is not None and not end_after(conn, sock, number, after):
                    return
                if after is not None and after.startswith("deaf"):
                    deaf = True
                after = None
                if last is not None:
                    # Read (and drop) until the client closes, so the close is a FIN, never a reset that could
                    # destroy the GOAWAY and the answers before the client reads them.
                    while sock.recv(65536):
                        pass
                    break
            print("ENDED", number, flush=True)
            sock.close()

        while True:
            client, _ = listener.accept()
            with lock:
                accepted[0] += 1
                number = accepted[0]
            threading.Thread(target=serve, args=(client, number), daemon=True).start()
        """#
}
