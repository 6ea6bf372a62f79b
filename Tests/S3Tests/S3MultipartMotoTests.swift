import AmazonS3
import Foundation
import HTTPCore
import HTTPPipeline
import HTTPTesting
import S3
import TestSupport
import Testing

/// Multipart uploads against moto: a 64 MiB file in flat memory with progress, a part retried after a failure,
/// and an upload aborted when a part keeps failing.
@Suite(.enabled(if: MotoPeer.shouldRun)) struct S3MultipartMotoTests {
    /// 64 MiB in eight 8 MiB parts streamed from disk, four at a time; the download matches byte for byte. The
    /// upload runs in a child process of its own (an exit test), whose peak resident size (`VmHWM`, reset before
    /// the upload) grows by less than the file: the file is never held whole (the growth is printed). Measured in
    /// this process, the peak would also hold whatever the tests running beside it allocate. Under a sanitizer the
    /// upload runs here and is not measured.
    @Test func upload64MiBInFlatMemory() async throws {
        try await withMoto { peer in
            let s3 = try S3Moto.client(peer)
            let directory = try makeTemporaryDirectory(prefix: "asikit-s3-multipart")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let size = 64 << 20
            let file = directory + "/big.bin"
            try await offPool { try S3Moto.writeFile(file, size: size) }
            try await s3.createBucket("asi-big")

            let fields: [String: String]
            if S3Moto.runsUnderSanitizer {
                // A sanitizer keeps freed memory in quarantine, so the peak says nothing about the upload, and its
                // leak check at a child's exit reports the runtime's own blocks: the upload runs here, unmeasured.
                let (report, _) = try await S3Moto.upload(s3, file: file)
                fields = S3Moto.fields(report)
            } else {
                let (port, keyID, secret) = (peer.port, peer.accessKeyID, peer.secretAccessKey)
                let child = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                    [port = port as Int, keyID = keyID as String, secret = secret as String, file = file as String] in
                    let s3 = try S3Moto.client(port: port, accessKeyID: keyID, secretAccessKey: secret)
                    S3Moto.resetPeakResidentBytes()
                    let before = S3Moto.peakResidentBytes()
                    let (report, _) = try await S3Moto.upload(s3, file: file)
                    try await s3.shutdown()
                    print("growth=\(S3Moto.peakResidentBytes() - before) \(report)")
                }
                let report = String(decoding: child?.standardOutputContent ?? [], as: UTF8.self)
                fields = S3Moto.fields(report)
                print("S3 multipart upload of 64 MiB: VmHWM grew by \((Int(fields["growth"] ?? "") ?? -1) / 1024) KiB")
                let growth = try #require(Int(fields["growth"] ?? ""), "the child printed no growth: \(report)")
                #expect(growth < size, "peak resident size grew by \(growth) bytes")
            }
            #expect(fields["etag"]?.hasSuffix("-8\"") == true, "a multipart ETag names its 8 parts: \(fields)")
            #expect(fields["uploaded"] == String(size), "aggregate upload progress: \(fields)")

            #expect(try await s3.headObject(bucket: "asi-big", key: "big.bin").contentLength == Int64(size))
            try await s3.downloadObject(bucket: "asi-big", key: "big.bin", to: directory + "/back.bin")
            #expect(try await offPool { try S3Moto.sameFiles(file, directory + "/back.bin") })
            try await s3.shutdown()
        }
    }

    /// A part whose first attempt fails is sent again from disk and the upload completes; a part that keeps
    /// failing aborts the upload (S3 drops it) and its error is thrown.
    @Test func partRetriedAndUploadAborted() async throws {
        try await withMoto { peer in
            let directory = try makeTemporaryDirectory(prefix: "asikit-s3-retry")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await offPool { try S3Moto.writeFile(directory + "/eleven.bin", size: 11 << 20) }
            let configuration = S3Client.MultipartConfiguration(
                partSize: 5 << 20, maxConcurrentParts: 2, attemptsPerPart: 3, threshold: 5 << 20)

            let flaky = PartFaults(failures: [2: 1])
            let s3 = try S3Moto.client(peer, middleware: [flaky])
            try await s3.createBucket("asi-retry")
            let eTag = try await s3.uploadFile(
                bucket: "asi-retry", key: "eleven.bin", fromFile: directory + "/eleven.bin",
                configuration: configuration)
            #expect(eTag.hasSuffix("-3\""))
            #expect(flaky.attempts == [1: 1, 2: 2, 3: 1])
            try await s3.downloadObject(bucket: "asi-retry", key: "eleven.bin", to: directory + "/back.bin")
            #expect(try await offPool { try S3Moto.sameFiles(directory + "/eleven.bin", directory + "/back.bin") })

            let broken = PartFaults(failures: [3: .max])
            let failing = try S3Moto.client(peer, middleware: [broken])
            do {
                try await failing.uploadFile(
                    bucket: "asi-retry", key: "never.bin", fromFile: directory + "/eleven.bin",
                    configuration: configuration)
                Issue.record("an upload with a failing part succeeded")
            } catch let error as ClientError {
                #expect(error.code == .connectFailed)
            }
            #expect(broken.attempts[3] == 3)
            let seen = broken.seen
            let abort = try #require(seen.firstIndex { $0.hasPrefix("DELETE uploadId=") })
            #expect(seen[abort + 1] == "-> 204")
            let uploads = try await s3.perform(
                Request(url: s3.endpoint.url(bucket: "asi-retry", query: [("uploads", nil)])))
            #expect(!String(decoding: uploads.body, as: UTF8.self).contains("<UploadId>"))
            await #expect(throws: S3Error.self) { try await s3.headObject(bucket: "asi-retry", key: "never.bin") }
            try await s3.shutdown()
            try await failing.shutdown()
        }
    }
}
