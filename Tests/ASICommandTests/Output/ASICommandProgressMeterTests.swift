import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// curl's progress meter: on stderr when the body does not go to the terminal, whether or not stderr is one (here
/// a pipe), and never with `-s`.
@Suite("asi: progress meter")
struct ASICommandProgressMeterTests {
    /// Runs `asi` with stderr to a pipe (a `cat` copies it into the captured stderr) and asi's exit status written
    /// after it as `asi-exit=N`.
    static let stderrThroughPipe = [
        "/bin/sh", "-c", "exec 3>&1; { \"$@\" 2>&1 1>&3 3>&-; echo \"asi-exit=$?\"; } | cat >&2", "sh",
    ]

    /// curl 7.88's meter header, as `curl -o FILE URL 2>&1 | od -c` shows it.
    static let meterHeader =
        "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n"
        + "                                 Dload  Upload   Total   Spent    Left  Speed\n"

    @Test func progressMeterGoesToAPipedStderrUnlessSilent() async throws {
        let body = [UInt8](repeating: 7, count: 300_000)
        let server = try LoopbackServer { _ in .ok(bytes: body) }
        defer { server.shutdown() }
        let directory = try makeTemporaryDirectory(prefix: "asikit-asi-meter")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = server.url("/report.bin").absoluteString

        let saved = try await ASICommandRun.run(["-o", directory + "/out", url], launcher: Self.stderrThroughPipe)
        #expect(saved.stderr.hasSuffix("asi-exit=0\n"), "\(saved.stderr)")
        #expect(FileManager.default.contents(atPath: directory + "/out").map(Array.init) == body)
        // curl's header, then lines that each start with a carriage return, the last ended by a line break.
        #expect(saved.stderr.hasPrefix(Self.meterHeader), "\(saved.stderr)")
        #expect(saved.stderr.contains("\r100  292k  100  292k    0     0 "), "\(saved.stderr)")
        #expect(saved.stderr.contains("\n") && saved.stderr.hasSuffix("\nasi-exit=0\n"))

        // stdout not a terminal: the meter too, as curl shows it for `curl URL > file`.
        let piped = try await ASICommandRun.run([url], launcher: Self.stderrThroughPipe)
        #expect(LargeBytes.equal(piped.stdout, body))
        #expect(piped.stderr.hasPrefix(Self.meterHeader), "\(piped.stderr)")

        let silent = try await ASICommandRun.run(
            ["-s", "-o", directory + "/quiet", url], launcher: Self.stderrThroughPipe)
        #expect(silent.stderr == "asi-exit=0\n", "-s: no meter")
        #expect(FileManager.default.contents(atPath: directory + "/quiet").map(Array.init) == body)
    }
}
