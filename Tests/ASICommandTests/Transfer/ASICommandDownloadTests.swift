import CodecTestSupport
import FoundationEssentials
import TestSupport
import Testing

/// `asi`'s file flags against a real nginx: `-o`, `-O`, `-C -`, `--compressed`/`--no-compressed`, `-T` and
/// `--data-binary @FILE` uploads, `-Z`/`--parallel-max` with `-#`, and a large body streamed to stdout in flat
/// memory.
@Suite("asi: downloads and uploads", .enabled(if: NginxPeer.shouldRun))
struct ASICommandDownloadTests {
    static let big = DataPath.bytes(700_000)
    static let text = DataPath.text(200_000)

    @Test func outputAndRemoteNameSaveFiles() async throws {
        try await withDataNginx(files: ["big.bin": Self.big, "t.txt": Self.text]) { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run([
                "-o", directory + "/one", "-o", directory + "/two",
                nginx.url("/files/big.bin").absoluteString, nginx.url("/files/t.txt").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(LargeBytes.equal(DataPath.read(directory + "/one"), Self.big))
            #expect(LargeBytes.equal(DataPath.read(directory + "/two"), Self.text))

            let remote = try await ASICommandRun.run(
                ["-O", nginx.url("/files/big.bin").absoluteString, nginx.url("/files/t.txt").absoluteString],
                in: directory)
            #expect(remote.status == 0, "\(remote.stderr)")
            #expect(LargeBytes.equal(DataPath.read(directory + "/big.bin"), Self.big))
            #expect(LargeBytes.equal(DataPath.read(directory + "/t.txt"), Self.text))
            #expect(DataPath.listing(directory) == ["big.bin", "one", "t.txt", "two"], "no temporary files left")

            let throughLink = try await ASICommandRun.run([
                "-o", "/dev/stdout", nginx.url("/files/t.txt").absoluteString,
            ])
            #expect(LargeBytes.equal(throughLink.stdout, Self.text), "a symbolic link is written through, not replaced")
        }
    }

    @Test func continueAtResumesWherethePartialFileEnds() async throws {
        try await withDataNginx(files: ["big.bin": Self.big]) { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/big.bin"
            try DataPath.write(Array(Self.big.prefix(300_000)), to: path)
            let url = nginx.url("/files/big.bin").absoluteString
            let resumed = try await ASICommandRun.run([
                "-C", "-", "-o", path, "-w", "%{http_code} %{size_download}", url,
            ])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.output == "206 400000")
            #expect(LargeBytes.equal(DataPath.read(path), Self.big))

            let complete = try await ASICommandRun.run(["-C", "-", "-o", path, "-w", "%{http_code}", url])
            #expect(complete.status == 0, "\(complete.stderr)")
            #expect(complete.output == "416")
            #expect(LargeBytes.equal(DataPath.read(path), Self.big))

            let fresh = try await ASICommandRun.run(["-o", path, "-w", "%{http_code} %{size_download}", url])
            #expect(fresh.output == "200 700000", "without -C the whole file comes again")
        }
    }

    @Test func compressedIsOnByDefaultAndNoCompressedTurnsItOff() async throws {
        let gzipped = try DataPath.gzip(Self.text)
        try await withDataNginx(files: ["t.txt": Self.text], precompressed: ["t.txt": gzipped]) { nginx in
            let format = ["-w", "%{size_download}"]
            for path in ["/dyn/t.txt", "/gz/t.txt"] {
                let url = nginx.url(path).absoluteString
                let compressed = try await ASICommandRun.run(["-o", "/dev/stdout", url] + format)
                #expect(compressed.status == 0, "\(compressed.stderr)")
                #expect(compressed.stdout.prefix(Self.text.count) == Self.text[...], "inflated on the way: \(path)")
                let wire = Int(String(decoding: compressed.stdout.dropFirst(Self.text.count), as: UTF8.self)) ?? 0
                #expect(wire > 0 && wire < Self.text.count / 4, "\(path) came compressed: \(wire) bytes")

                let plain = try await ASICommandRun.run(["--no-compressed", url] + format)
                #expect(plain.stdout == Self.text + Array("\(Self.text.count)".utf8), "\(path) came as is")
            }
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let saved = try await ASICommandRun.run(["-o", directory + "/t.txt", nginx.url("/gz/t.txt").absoluteString])
            #expect(saved.status == 0)
            #expect(LargeBytes.equal(DataPath.read(directory + "/t.txt"), Self.text))
        }
    }

    @Test func uploadFileAndDataBinaryStreamFilesUp() async throws {
        try await withDataNginx { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try DataPath.write(Self.big, to: directory + "/up.bin")
            let put = try await ASICommandRun.run(
                ["-T", directory + "/up.bin", nginx.url("/dav/put.bin").absoluteString, "-w", "%{http_code}"])
            #expect(put.status == 0, "\(put.stderr)")
            #expect(put.output.hasSuffix("201"))
            #expect(LargeBytes.equal(DataPath.read(nginx.documentPath("dav/put.bin")), Self.big))

            let named = try await ASICommandRun.run([
                "-T", directory + "/up.bin", nginx.url("/dav/dir/").absoluteString,
            ])
            #expect(named.status == 0, "\(named.stderr)")
            #expect(
                LargeBytes.equal(DataPath.read(nginx.documentPath("dav/dir/up.bin")), Self.big),
                "a URL ending in / gets the name")

            let binary = try await ASICommandRun.run([
                "-X", "PUT", "--data-binary", "@" + directory + "/up.bin", nginx.url("/dav/binary.bin").absoluteString,
            ])
            #expect(binary.status == 0, "\(binary.stderr)")
            #expect(LargeBytes.equal(DataPath.read(nginx.documentPath("dav/binary.bin")), Self.big))
        }
    }

    @Test func parallelRunsTheURLsThroughAQueueWithProgress() async throws {
        let files = Dictionary(
            uniqueKeysWithValues: (0..<5).map { ("f\($0).bin", DataPath.bytes(50_000 + $0, seed: UInt32($0 + 1))) })
        try await withDataNginx(files: files) { nginx in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let names = files.keys.sorted()
            let run = try await ASICommandRun.run(
                ["-Z", "--parallel-max", "2", "-#", "-O", "-w", "%{http_code}\\n"]
                    + names.map { nginx.url("/files/" + $0).absoluteString },
                in: directory)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output == String(repeating: "200\n", count: names.count))
            for name in names { #expect(DataPath.read(directory + "/" + name) == files[name]) }
            for name in names { #expect(run.stderr.contains(name), "the bar names each transfer: \(run.stderr)") }
            #expect(run.stderr.contains("total down"), "the queue's total is drawn: \(run.stderr)")

            let failing = try await ASICommandRun.run(
                ["-Z", "--fail", "-s", "-o", directory + "/a", "-o", directory + "/b"]
                    + [nginx.url("/files/f0.bin").absoluteString, nginx.url("/files/missing").absoluteString])
            #expect(failing.status == 22)
            #expect(DataPath.read(directory + "/a") == files["f0.bin"], "one failure does not cancel the others")
        }
    }

    @Test func aLargeBodyStreamsToStdoutInFlatMemory() async throws {
        let chunk = DataPath.bytes(1 << 20)
        let size = 64
        let body = LargeBytes.repeated(chunk, times: size)
        try await withDataNginx(files: ["large.bin": body]) { nginx in
            let run = try await ASICommandRun.run([nginx.url("/files/large.bin").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.count == body.count)
            #expect(LargeBytes.equal(run.stdout, body))
            #expect(run.maxResidentKiB > 0, "the peak was measured")
            #expect(run.maxResidentKiB < 48 * 1024, "peak memory \(run.maxResidentKiB) KiB for a \(size) MiB body")
        }
    }
}
