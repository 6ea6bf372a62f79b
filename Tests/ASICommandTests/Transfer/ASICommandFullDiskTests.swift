import FoundationEssentials
import Glibc
import HTTPTesting
import TestSupport
import Testing

/// `asi -o FILE` on a disk that fills up mid-download: exit 23 (curl's write error) and no file, partial or whole,
/// at the destination. The write really fails: on a 256 KiB tmpfs mounted in a mount namespace of asi's own (the
/// kernel's `ENOSPC`; the mount ends with the process) where mounting is allowed, otherwise under a 64 KiB
/// `RLIMIT_FSIZE` with `SIGXFSZ` ignored (the kernel's `EFBIG`). Never skipped.
@Suite("asi: a full disk during a download")
struct ASICommandFullDiskTests {
    static let body = DataPath.bytes(1 << 20)

    /// The tmpfs run: a shell in a new mount namespace mounts the disk, runs asi, then lists the disk (the listing
    /// goes outside it, since the mount is gone once the shell ends). Status 99: mounting is not allowed here.
    static let tmpfsScript = """
        mount -t tmpfs -o size=256k tmpfs "$ASI_DISK" 2>/dev/null || exit 99
        "$@"
        status=$?
        ls -A "$ASI_DISK" > "$ASI_LISTING"
        exit $status
        """

    /// A 200 body is saved by the library (`DownloadOptions`); another status's body, which curl saves too, by `asi`.
    @Test(arguments: [200, 404])
    func aWriteFailureIs23AndLeavesNoFileAtTheDestination(status: Int) async throws {
        let body = Self.body
        let server = try LoopbackServer { _ in .status(status, body: body) }
        defer { server.shutdown() }
        let directory = try makeTemporaryDirectory(prefix: "asikit-full-disk")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let disk = directory + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let arguments = ["-s", "-S", "-o", disk + "/out.bin", server.url("/big").absoluteString]

        var run: ASICommandRun?
        var listing: [String] = []
        if let unshare = ChildProcess.find("unshare") {
            let attempt = try await ASICommandRun.run(
                arguments, environment: ["ASI_DISK": disk, "ASI_LISTING": directory + "/listing"],
                launcher: [unshare, "-m", "/bin/sh", "-c", Self.tmpfsScript, "sh"])
            if let text = FileManager.default.contents(atPath: directory + "/listing") {
                run = attempt
                listing = String(decoding: text, as: UTF8.self).split(separator: "\n").map(String.init)
                if status == 200 { #expect(attempt.stderr.contains("No space left on device"), "\(attempt.stderr)") }
            }
        }
        if run == nil {
            // No mount namespace for us: a file size limit makes the same write fail. `ulimit -f` counts 512-byte
            // blocks; an ignored signal stays ignored across exec.
            let limited = try await ASICommandRun.run(
                arguments, launcher: ["/bin/sh", "-c", "ulimit -f 128 && trap '' XFSZ && exec \"$@\"", "sh"])
            run = limited
            listing = DataPath.listing(disk)
            if status == 200 { #expect(limited.stderr.contains("File too large"), "\(limited.stderr)") }
        }
        let result = try #require(run)
        #expect(result.status == 23, "\(result.stderr)")
        #expect(result.stderr.contains(status == 200 ? "Cannot write the download file" : "Failure writing output"),
                "\(result.stderr)")
        #expect(listing.isEmpty, "left behind: \(listing)")
        #expect(server.requests.count == 1)
    }
}
