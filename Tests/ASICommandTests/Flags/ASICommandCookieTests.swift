import FoundationEssentials
import Glibc
import HTTPTesting
import TestSupport
import Testing

/// Cookie files shared with curl against a real httpbin, public suffixes end to end, and a crash during a jar
/// write.
@Suite("asi: cookies", .serialized)
struct ASICommandCookieTests {
    static let curl = ChildProcess.find("curl")

    static func run(_ executable: String, _ arguments: [String], in directory: String) throws -> String {
        let log = directory + "/curl.log"
        let status = try ChildProcess.run(executable, arguments, logPath: log)
        let output = String(decoding: DataPath.read(log) ?? [], as: UTF8.self)
        try #require(status == 0, "\(executable) \(arguments) exited \(status): \(output)")
        return output
    }

    /// `text` percent-encoded for a query value.
    static func query(_ text: String) -> String {
        text.utf8.map { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded()
        }.joined()
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func aJarWrittenByCurlIsReadAndSentByAsi() async throws {
        let curl = try #require(Self.curl, "curl is needed")
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let jar = directory + "/curl-jar.txt"
            _ = try Self.run(curl, ["-s", "-o", "/dev/null", "-c", jar,
                                    httpbin.url("/cookies/set?flavour=oatmeal&count=2").absoluteString], in: directory)
            #expect(String(decoding: DataPath.read(jar) ?? [], as: UTF8.self).contains("\tflavour\toatmeal"))
            let sent = try await ASICommandRun.run(["-b", jar, httpbin.url("/cookies").absoluteString])
            #expect(sent.status == 0, "\(sent.stderr)")
            #expect(sent.output.contains("\"flavour\": \"oatmeal\"") && sent.output.contains("\"count\": \"2\""))
        }
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func aJarWrittenByAsiWithAnHttpOnlyCookieIsReadByCurl() async throws {
        let curl = try #require(Self.curl, "curl is needed")
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let jar = directory + "/asi-jar.txt"
            let setCookie = Self.query("hidden=h1; HttpOnly; Path=/; Max-Age=3600")
            let set = try await ASICommandRun.run([
                "-c", jar, httpbin.url("/response-headers?Set-Cookie=\(setCookie)").absoluteString,
            ])
            #expect(set.status == 0, "\(set.stderr)")
            let text = String(decoding: DataPath.read(jar) ?? [], as: UTF8.self)
            #expect(text.hasPrefix("# Netscape HTTP Cookie File\n"))
            #expect(text.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t"), "\(text)")
            let output = try Self.run(curl, ["-s", "-b", jar, httpbin.url("/cookies").absoluteString], in: directory)
            #expect(output.contains("\"hidden\": \"h1\""), "\(output)")
        }
    }

    @Test(.enabled(if: HttpbinPeer.shouldRun)) func publicSuffixCookiesAreRefusedEndToEnd() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let port = httpbin.url("/").port ?? 80
            let jar = directory + "/jar.txt"
            func setCookie(_ value: String, host: String) async throws -> ASICommandRun {
                let query = Self.query(value)
                return try await ASICommandRun.run([
                    "-c", jar, "--resolve", "\(host):\(port):127.0.0.1",
                    "http://\(host):\(port)/response-headers?Set-Cookie=\(query)",
                ])
            }
            let refused = try await setCookie("wide=1; Domain=co.uk; Max-Age=600", host: "a.co.uk")
            #expect(refused.status == 0, "\(refused.stderr)")
            let kept = try await setCookie("site=2; Domain=example.co.uk; Max-Age=600", host: "www.example.co.uk")
            #expect(kept.status == 0, "\(kept.stderr)")
            let text = String(decoding: DataPath.read(jar) ?? [], as: UTF8.self)
            #expect(!text.contains("\twide\t"), "a cookie for co.uk is refused")
            #expect(text.contains(".example.co.uk\tTRUE\t/\tFALSE\t"), "\(text)")
            let sent = try await ASICommandRun.run([
                "-b", jar, "--resolve", "shop.example.co.uk:\(port):127.0.0.1",
                "http://shop.example.co.uk:\(port)/cookies",
            ])
            #expect(sent.output.contains("\"site\": \"2\"") && !sent.output.contains("wide"), "\(sent.output)")
        }
    }

    @Test func killDuringAJarWriteLeavesThePreviousFileIntact() async throws {
        let server = try LoopbackServer { _ in
            .status(200, headers: [("Set-Cookie", "fresh=1; Max-Age=600")])
        }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jar = directory + "/jar.txt"
        let far = Int(Date().timeIntervalSince1970) + 3600
        let previous = Array("# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t\(far)\told\tkeep\n".utf8)
        try DataPath.write(previous, to: jar)
        let marker = directory + "/paused"
        let asi = try ChildProcess(
            executable: ASICommandRun.binary,
            arguments: ["-s", "-o", "/dev/null", "-c", jar, server.url("/").absoluteString],
            logPath: directory + "/asi.log", environment: ["ASI_TEST_PAUSE_BEFORE_COOKIE_RENAME": marker])
        // Wait (up to a minute; no timing is asserted) until the new file is written and synced, before the rename.
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: marker) && asi.isRunning {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(FileManager.default.fileExists(atPath: marker), "asi reached the rename: \(asi.logTail)")
        asi.terminate(grace: .zero, signal: SIGKILL)
        #expect(DataPath.read(jar) == previous, "the old jar is untouched")
        let temporary = DataPath.listing(directory).filter { $0.hasPrefix(".cookies-") }
        #expect(temporary.count == 1, "the new jar was complete in its temporary file: \(temporary)")
        if let name = temporary.first {
            #expect(String(decoding: DataPath.read(directory + "/" + name) ?? [], as: UTF8.self).contains("\tfresh\t1"))
        }
        // The next run reads the intact old file and writes both.
        let next = try await ASICommandRun.run(["-c", jar, server.url("/").absoluteString])
        #expect(next.status == 0, "\(next.stderr)")
        let text = String(decoding: DataPath.read(jar) ?? [], as: UTF8.self)
        #expect(text.contains("\told\tkeep") && text.contains("\tfresh\t1"))
    }
}

extension String {
    fileprivate func leftPadded() -> String { count == 1 ? "0" + self : self }
}

/// `-j` and `-c -` against a loopback server that records the `Cookie` field.
@Suite("asi: cookie flags")
struct ASICommandCookieFlagTests {
    @Test func junkSessionCookiesDropsTheSessionCookiesOfCookieFiles() async throws {
        let server = try LoopbackServer { _ in .ok("ok") }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jar = directory + "/in.txt"
        let far = Int(Date().timeIntervalSince1970) + 3600
        try DataPath.write(Array("""
            # Netscape HTTP Cookie File
            127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\ts
            127.0.0.1\tFALSE\t/\tFALSE\t\(far)\tlasting\tl

            """.utf8), to: jar)
        func sentCookie(_ arguments: [String]) async throws -> String? {
            let run = try await ASICommandRun.run(arguments + ["-b", jar, server.url("/").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            return server.requests.last?.headers.first { $0.name.lowercased() == "cookie" }?.value
        }
        #expect(try await sentCookie([]) == "lasting=l; session=s", "a file lists the newest first, as curl sends")
        #expect(try await sentCookie(["-j"]) == "lasting=l")
    }

    @Test func cookieStringsAreSentAfterTheStoredCookiesAsCurlDoes() async throws {
        let server = try LoopbackServer { _ in .ok("ok") }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jar = directory + "/in.txt"
        let file = "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t0\tstored\ts\n"
        try DataPath.write(Array(file.utf8), to: jar)
        func sentCookie(_ arguments: [String]) async throws -> String? {
            let run = try await ASICommandRun.run(arguments + [server.url("/").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            return server.requests.last?.headers.first { $0.name.lowercased() == "cookie" }?.value
        }
        #expect(try await sentCookie(["-b", jar, "-b", "tool=asi; name=fool"]) == "stored=s; tool=asi; name=fool")
        #expect(try await sentCookie(["-b", "tool=asi; name=fool", "-b", jar]) == "stored=s; tool=asi; name=fool")
        #expect(try await sentCookie(["-b", "tool=asi"]) == "tool=asi")
        #expect(try await sentCookie(["-H", "Cookie: own=1", "-b", "tool=asi", "-b", jar])
            == "own=1; stored=s; tool=asi")
    }

    @Test func cookieJarDashWritesTheJarToStandardOutput() async throws {
        let server = try LoopbackServer { _ in
            .status(200, headers: [("Set-Cookie", "s=1"), ("Set-Cookie", "h=2; HttpOnly; Max-Age=60")])
        }
        defer { server.shutdown() }
        let run = try await ASICommandRun.run(["-s", "-o", "/dev/null", "-c", "-", server.url("/").absoluteString])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.output.hasPrefix("# Netscape HTTP Cookie File\n"))
        #expect(run.output.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\ts\t1"), "session cookies are kept, as curl's -c")
        #expect(run.output.contains("#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t"))
    }
}
