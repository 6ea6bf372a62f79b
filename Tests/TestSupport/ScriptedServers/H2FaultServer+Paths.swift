extension H2FaultServer {
    /// The fault server's paths for issue 31's protocol features, python spliced into its script:
    /// - `/trailers`: `ok` with `content-length: 2`, then trailers `x-checksum: sha256-ok` and `x-status: 0`.
    /// - `/trailer-flood`: `ok`, then a trailer section of about 100 KiB.
    /// - `/slow`: never answered (a stream that stays open until the client resets it).
    /// - `/trickle`: a head, then one body byte every 200 ms for a minute (the connection serves nothing else).
    /// - `/continuation-flood`: a `HEADERS` frame without `END_HEADERS`, then up to 100,000 `CONTINUATION` frames;
    ///   prints `FLOOD-ENDED n` with the number written when the client closes the connection.
    /// - `/then-close`: `ok`, then the connection is closed without `GOAWAY` (prints `CLOSED n`).
    /// - `/then-goaway`: `ok`, then `GOAWAY` (last stream id: this one), then reads until the client closes.
    /// - `/then-deaf`: `ok`, then the server reads and answers nothing more, PINGs included (a dead peer).
    /// - `/then-arm`: `ok`; the connection's next request (any path but `/reset` and `/flood`) is not answered: the
    ///   server closes the connection as it arrives (the keep-alive race, on cue).
    /// The server never acknowledges request body bytes (`WINDOW_UPDATE`), so an upload larger than 64 KiB starves
    /// on every path; each received PING prints `PING n`.
    static let extraPaths = #"""
        import time

        def extra_path(conn, sock, sid, path):
            if getattr(conn, "close_on_next", False):
                return "close:%d" % sid
            if path.startswith("/then-arm"):
                conn.close_on_next = True
                return None
            if path.startswith("/trailers"):
                conn.send_headers(sid, [(":status", "200"), ("content-length", "2")])
                conn.send_data(sid, b"ok")
                conn.send_headers(sid, [("x-checksum", "sha256-ok"), ("x-status", "0")], end_stream=True)
                return "handled"
            if path.startswith("/trailer-flood"):
                conn.send_headers(sid, [(":status", "200"), ("content-length", "2")])
                conn.send_data(sid, b"ok")
                conn.send_headers(sid, [("x-flood-%d" % i, "b" * 1000) for i in range(100)], end_stream=True)
                return "handled"
            if path.startswith("/slow"):
                return "handled"
            if path.startswith("/trickle"):
                conn.send_headers(sid, [(":status", "200")])
                return "trickle:%d" % sid
            if path.startswith("/continuation-flood"):
                return "flood:%d" % sid
            for action in ("close", "goaway", "deaf"):
                if path.startswith("/then-" + action):
                    conn.send_headers(sid, [(":status", "200"), ("content-length", "2")])
                    conn.send_data(sid, b"ok", end_stream=True)
                    return "%s:%d" % (action, sid)
            return None

        def frame(kind, flags, sid, payload):
            return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + sid.to_bytes(4, "big") + payload

        def end_after(conn, sock, number, action):
            """Runs what a path asked for after its answer; False when the connection is over."""
            kind, sid = action.split(":")
            sid = int(sid)
            if kind == "deaf":
                return True
            if kind == "trickle":
                # One byte every 200 ms for up to a minute, answering nothing else meanwhile; ends when the
                # client closes the connection.
                try:
                    for _ in range(300):
                        time.sleep(0.2)
                        conn.send_data(sid, b"x")
                        sock.sendall(conn.data_to_send())
                    conn.end_stream(sid)
                    sock.sendall(conn.data_to_send())
                except Exception:
                    return False
                return True
            if kind == "close":
                sock.close()
                print("CLOSED", number, flush=True)
                return False
            if kind == "goaway":
                conn.close_connection(last_stream_id=sid)
                sock.sendall(conn.data_to_send())
                while sock.recv(65536):
                    pass
                sock.close()
                return False
            # A CONTINUATION flood: ":status: 200", then one small literal field per frame, never END_HEADERS.
            written = 0
            try:
                sock.sendall(frame(1, 0, sid, b"\x88"))
                field = b"\x00\x01x\x01y"
                for written in range(1, 100001):
                    sock.sendall(frame(9, 0, sid, field))
            except OSError:
                pass
            print("FLOOD-ENDED", written, flush=True)
            sock.close()
            return False
        """#

    /// How many requests whose path starts with `prefix` the server received so far.
    /// - Parameter prefix: The start of the path, such as `/slow`.
    /// - Returns: The count.
    package func requestCount(path prefix: String) -> Int {
        outputLines(startingWith: "REQUEST ").filter { line in
            let words = line.split(separator: " ")
            return words.count > 2 && words[2].hasPrefix(prefix)
        }.count
    }

    /// The complete lines of the server's output that start with `prefix`. The server may be writing a line while
    /// the test reads the output: a last line without its newline is not complete yet, and is left out.
    /// - Parameter prefix: The start of the lines, such as `PING` or `CLOSED`.
    /// - Returns: The lines, in order.
    package func outputLines(startingWith prefix: String) -> [String] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: empty, or a line still being written
        return lines.filter { $0.hasPrefix(prefix) }.map(String.init)
    }
}
