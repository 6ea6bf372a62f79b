import FoundationEssentials
import TestSupport
import Testing

/// `asi -Z` over HTTP/2, beside curl where it is installed: parallel transfers to one h2 origin share one
/// connection (curl's default: it waits to multiplex), and `--parallel-immediate` opens a connection per transfer
/// at once. nginx's access log (`$connection`) counts the connections each tool used.
@Suite("asi -Z over HTTP/2", .enabled(if: HTTP2NginxPeer.shouldRun))
struct ASICommandParallelHTTP2Tests {
    /// The tools run: asi, and curl when installed.
    enum Tool: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case asi, curl
        var testDescription: String { rawValue }
        var executable: String? { self == .asi ? ASICommandRun.binary : ChildProcess.find("curl") }
        static var available: [Tool] { allCases.filter { $0.executable != nil } }
    }

    /// Starts `tool` on `count` URLs of `/1k.bin` tagged `tag`, each saved to /dev/null, with `flags` first.
    private func start(
        _ tool: Tool, _ flags: [String], count: Int, tag: String, nginx: HTTP2NginxPeer, in directory: String
    ) throws -> ChildProcess {
        let urls = (0..<count).flatMap { ["-o", "/dev/null", nginx.url("/1k.bin?\(tag)-\($0)").absoluteString] }
        return try ChildProcess(
            executable: try #require(tool.executable),
            arguments: ["-s", "-S", "--cacert", nginx.certificates.caPath] + flags + urls,
            logPath: directory + "/\(tool).log")
    }

    @Test(arguments: Tool.available)
    func parallelTransfersShareOneConnection(_ tool: Tool) async throws {
        try await withHTTP2Nginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-parallel")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let process = try start(tool, ["-Z", "--parallel-max", "4"], count: 12, tag: "shared", nginx: nginx,
                                    in: directory)
            let status = await process.exited()
            #expect(status == 0, "\(tool): \(process.logTail)")
            #expect(await eventually { nginx.accessLog.filter { $0.contains("shared-") }.count >= 12 })
            let lines = nginx.accessLog.filter { $0.contains("shared-") }
            #expect(lines.count == 12 && lines.allSatisfy { $0.contains(" 200 ") && $0.contains("HTTP/2.0") },
                    "\(tool): nginx saw \(lines)")
            #expect(nginx.connections(servingPath: "shared-").count == 1, "\(tool): nginx saw \(lines)")
        }
    }

    /// nginx is stopped while the tool starts, so every connection the tool opens at once waits in the listen
    /// queue where the kernel counts it; a tool that waited to multiplex would hold one there, never four. The
    /// handshakes wait as long as nginx is stopped, so the tools get generous timeouts: asi's default 10-second one
    /// ran out when busy cores slowed the tools' own start.
    @Test(arguments: Tool.available)
    func parallelImmediateOpensAConnectionPerTransfer(_ tool: Tool) async throws {
        try await withHTTP2Nginx { nginx in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-parallel")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            nginx.suspend(true)
            let process: ChildProcess
            do {
                let flags = [
                    "-Z", "--parallel-max", "4", "--parallel-immediate", "--connect-timeout", "300", "-y", "300",
                ]
                process = try start(tool, flags, count: 8, tag: "immediate", nginx: nginx, in: directory)
            } catch {
                nginx.suspend(false)
                throw error
            }
            let opened = await eventually(within: 120) { nginx.establishedConnections(to: .tls) >= 4 }
            nginx.suspend(false)
            #expect(opened, "\(tool) held \(nginx.establishedConnections(to: .tls)) connections, not 4")
            let status = await process.exited()
            #expect(status == 0, "\(tool): \(process.logTail)")
            #expect(await eventually { nginx.accessLog.filter { $0.contains("immediate-") }.count >= 8 })
            let lines = nginx.accessLog.filter { $0.contains("immediate-") }
            #expect(lines.count == 8 && lines.allSatisfy { $0.contains(" 200 ") && $0.contains("HTTP/2.0") },
                    "\(tool): nginx saw \(lines)")
            #expect(nginx.connections(servingPath: "immediate-").count == 4, "\(tool): nginx saw \(lines)")
        }
    }
}
