import FoundationEssentials
import Glibc
import HTTPCore
import HTTPPipeline
import HTTPTesting
import TestSupport
import Testing

/// A download to a file on a disk that fills up: the library API's half of the fault matrix's "full disk" row
/// (`asi`'s is `ASICommandFullDiskTests`). The write really fails: on a 256 KiB tmpfs where this process may mount
/// one (the kernel's `ENOSPC`), otherwise through a temporary path that is a symbolic link to `/dev/full` (every
/// write to it fails with `ENOSPC`). Never skipped.
@Suite("data path: a full disk during a download")
struct DownloadFullDiskTests {
    @Test func aFullDiskFailsWithStorageFailedAndLeavesNoFile() async throws {
        let body = DataPath.bytes(1 << 20)
        let server = try LoopbackServer { _ in .ok(bytes: body) }
        defer { server.shutdown() }
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let disk = directory + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        let mounted = await Self.run("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk], in: directory)
        var request = Request(url: server.url("/big"))
        var options = DownloadOptions(destinationPath: disk + "/out.bin")
        if !mounted {
            try FileManager.default.createSymbolicLink(atPath: disk + "/out.bin.part", withDestinationPath: "/dev/full")
            options.temporaryPath = disk + "/out.bin.part"
        }
        request.options.download = options
        let error = await #expect(throws: ClientError.self) { try await DataPath.client().send(request) }
        let listing = DataPath.listing(disk)
        if mounted { #expect(await Self.run("umount", [disk], in: directory)) }
        #expect(error?.code == .storageFailed)
        #expect(error?.stage == .pipeline)
        #expect((error?.underlying as? SyscallError)?.errno == ENOSPC, "\(String(describing: error))")
        #expect(listing.isEmpty, "left behind: \(listing)")
    }

    /// Runs a system command; whether it exited 0.
    private static func run(_ name: String, _ arguments: [String], in directory: String) async -> Bool {
        guard let path = ChildProcess.find(name),
            let child = try? ChildProcess(executable: path, arguments: arguments, logPath: directory + "/\(name).log")
        else { return false }
        return await child.exited() == 0
    }
}
