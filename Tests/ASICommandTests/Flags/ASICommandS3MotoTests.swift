import FoundationEssentials
import TestSupport
import Testing

/// `asi --aws-sigv4 aws:amz:us-east-1:s3 -u KEY:SECRET` against moto with signature checking on: creates a
/// bucket (`-X PUT`), uploads a file (`-T`), downloads it intact, and gets 403 with a wrong secret.
@Suite("asi: S3 on moto", .enabled(if: MotoPeer.shouldRun))
struct ASICommandS3MotoTests {
    @Test func awsSigV4AgainstMoto() async throws {
        try await withMoto { moto in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-s3")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let bytes = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 11) }
            try DataPath.write(bytes, to: directory + "/upload.bin")
            let base = "http://127.0.0.1:\(moto.port)"
            let signing = ["--aws-sigv4", "aws:amz:us-east-1:s3", "-u", "\(moto.accessKeyID):\(moto.secretAccessKey)"]
            let code = ["-s", "-w", "%{http_code}"]

            let create = try await ASICommandRun.run(
                signing + code + ["-o", "/dev/null", "-X", "PUT", base + "/asi-cli"])
            #expect(create.status == 0 && create.output == "200", "\(create.output) \(create.stderr)")
            let upload = try await ASICommandRun.run(
                signing + code + ["-o", "/dev/null", "-T", directory + "/upload.bin", base + "/asi-cli/dir/upload.bin"])
            #expect(upload.status == 0 && upload.output == "200", "\(upload.output) \(upload.stderr)")
            let download = try await ASICommandRun.run(
                signing + code + ["-o", directory + "/download.bin", base + "/asi-cli/dir/upload.bin"])
            #expect(download.status == 0 && download.output == "200", "\(download.output) \(download.stderr)")
            #expect(FileManager.default.contents(atPath: directory + "/download.bin").map(Array.init) == bytes)

            let wrong = ["--aws-sigv4", "aws:amz:us-east-1:s3", "-u", "\(moto.accessKeyID):wrong-secret"]
            let denied = try await ASICommandRun.run(wrong + ["-s", base + "/asi-cli/dir/upload.bin"])
            #expect(denied.status == 0)
            #expect(denied.output.contains("SignatureDoesNotMatch") || denied.output.contains("AccessDenied"))
            let deniedCode = try await ASICommandRun.run(
                wrong + code + ["-o", "/dev/null", base + "/asi-cli/dir/upload.bin"])
            #expect(deniedCode.output == "403")
            #expect(!denied.stderr.contains("wrong-secret"))

            // Unsigned, moto refuses; without -u, asi refuses the flag (usage error 2).
            let unsigned = try await ASICommandRun.run(code + ["-o", "/dev/null", base + "/asi-cli/dir/upload.bin"])
            #expect(unsigned.output == "403")
            let usage = try await ASICommandRun.run(["--aws-sigv4", "aws:amz:us-east-1:s3", base + "/asi-cli"])
            #expect(usage.status == 2, "\(usage.stderr)")
        }
    }

    /// The region and service come from the flag, else from the host name, as in curl.
    @Test func regionAndServiceFromTheHost() async throws {
        let run = try await ASICommandRun.run(["--aws-sigv4", "gcp", "-u", "k:s", "http://127.0.0.1:9/"])
        #expect(run.status == 2, "\(run.stderr)")
        let missing = try await ASICommandRun.run(["--aws-sigv4", "aws:amz", "-u", "k:s", "http://127.0.0.1:9/"])
        #expect(missing.status == 2, "\(missing.stderr)")
    }
}
