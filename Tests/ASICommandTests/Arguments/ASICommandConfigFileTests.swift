import FoundationEssentials
import TestSupport
import Testing

/// `asi -K/--config FILE` (curl's config-file syntax), `--url`, and many URLs on one command line, through the
/// built binary against a real nginx.
@Suite("asi: config files and --url against nginx", .enabled(if: NginxPeer.shouldRun))
struct ASICommandConfigFileTests {
    /// Writes `text` to a file in a fresh directory.
    private static func file(_ text: String, named name: String = "asi.cfg") throws -> (String, String) {
        let directory = try makeTemporaryDirectory(prefix: "asikit-asi-config")
        let path = directory + "/" + name
        try Data(text.utf8).write(to: URL(filePath: path))
        return (directory, path)
    }

    @Test func aConfigFileGivesURLsOutputsAndFlagsInCurlsSyntax() async throws {
        try await withNginx { nginx in
            let (directory, path) = try Self.file(
                """
                # curl's config syntax: names with or without dashes, =, : or white space, quotes, comments
                silent
                --fail
                url = "\(nginx.url("/hello.txt").absoluteString)"
                output = "hello out.txt"
                  url: \(nginx.url("/1k.bin").absoluteString)
                -o one.bin
                header = "X-Quoted: a \\"b\\"\\tc"
                """)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run(["-K", path], in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty, "silent, and no warnings: \(run.stderr)")
            #expect(try Data(contentsOf: URL(filePath: directory + "/hello out.txt")) == Data("hello\n".utf8))
            #expect(try Data(contentsOf: URL(filePath: directory + "/one.bin")) == Data(NginxPeer.oneKiB))
        }
    }

    @Test func theConfigCanComeFromStandardInputAndStandsWhereKIs() async throws {
        try await withNginx { nginx in
            // -o files pair with URLs in order: the positional URL before -K is the first, the config's the second.
            let (directory, path) = try Self.file("url = \(nginx.url("/1k.bin").absoluteString)\n", named: "stdin")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run(
                ["-s", "-o", "a.txt", "-o", "b.bin", nginx.url("/hello.txt").absoluteString, "-K", "-"],
                in: directory, standardInput: path)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Data(contentsOf: URL(filePath: directory + "/a.txt")) == Data("hello\n".utf8))
            #expect(try Data(contentsOf: URL(filePath: directory + "/b.bin")) == Data(NginxPeer.oneKiB))
        }
    }

    @Test func urlJoinsThePositionalURLsInOrder() async throws {
        try await withNginx { nginx in
            let run = try await ASICommandRun.run([
                "-s", "--url", nginx.url("/hello.txt").absoluteString, nginx.url("/1k.bin").absoluteString,
                "--url=\(nginx.url("/hello.txt").absoluteString)",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == Array("hello\n".utf8) + NginxPeer.oneKiB + Array("hello\n".utf8))
        }
    }

    @Test func unknownConfigLinesWarnAndAMissingFileExits26() async throws {
        try await withNginx { nginx in
            let (directory, path) = try Self.file(
                "no-such-option\nmax-time\nurl = \(nginx.url("/hello.txt").absoluteString)\n")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let warned = try await ASICommandRun.run(["-K", path])
            #expect(warned.status == 0, "\(warned.stderr)")
            #expect(warned.output == "hello\n")
            #expect(warned.stderr.contains("asi.cfg:1: warning: 'no-such-option' is unknown"), "\(warned.stderr)")
            #expect(warned.stderr.contains("asi.cfg:2: warning: 'max-time' requires parameter"), "\(warned.stderr)")

            let missing = try await ASICommandRun.run(["--config", directory + "/absent.cfg"])
            #expect(missing.status == 26)
            #expect(missing.stderr.contains("(26) Cannot read config file"), "\(missing.stderr)")
        }
    }

    @Test func nextInAConfigFileStartsAGroupWithItsOwnOptions() async throws {
        try await withNginx { nginx in
            let (directory, path) = try Self.file(
                """
                url = \(nginx.url("/hello.txt").absoluteString)
                next
                include
                url = \(nginx.url("/hello.txt").absoluteString)
                """)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run(["-s", "-K", path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output.hasPrefix("hello\nHTTP/1.1 200 OK\r\n"), "only the second group has -i: \(run.output)")
            #expect(run.output.hasSuffix("\r\n\r\nhello\n"))
        }
    }

    @Test func helpListsURLAndConfigAndExitsZero() async throws {
        for arguments in [["--help"], ["-h"], ["--url", "http://127.0.0.1:9/", "--help"]] {
            let run = try await ASICommandRun.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.output.contains("--url <url>"), "\(arguments): \(run.output)")
            #expect(run.output.contains("-K, --config <file>"), "\(arguments): \(run.output)")
        }
    }

    @Test func twoThousandURLsAreAllFetchedInOrder() async throws {
        try await withNginx { nginx in
            let pair = [nginx.url("/hello.txt").absoluteString, nginx.url("/1k.bin").absoluteString]
            let urls = Array([[String]](repeating: pair, count: 1_000).joined())
            let run = try await ASICommandRun.run(["-s"] + urls, limit: .seconds(600))
            #expect(run.status == 0, "\(run.stderr)")
            let expected = LargeBytes.repeated(Array("hello\n".utf8) + NginxPeer.oneKiB, times: 1_000)
            #expect(LargeBytes.equal(run.stdout, expected))
        }
    }
}
