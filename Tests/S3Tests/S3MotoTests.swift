import AmazonS3
import Foundation
import HTTPCore
import HTTPPipeline
import HTTPTesting
import S3
import SocketTransport
import TestSupport
import Testing

/// Every S3 operation against a real S3-compatible server, moto, with signature checking on (a key created in
/// moto's IAM; see `MotoPeer`).
@Suite(.enabled(if: MotoPeer.shouldRun)) struct S3MotoTests {
    /// Buckets and objects: create, list, put (memory and file, with metadata, ACL, storage class and content
    /// type), head, get (whole, ranged, to a file, resumed), copy (metadata copied or replaced), delete; typed
    /// errors for a missing key, a missing object's HEAD and a bucket that is not empty.
    @Test func bucketsAndObjects() async throws {
        try await withMoto { peer in
            let s3 = try S3Moto.client(peer)
            try await s3.createBucket("asi-objects")
            #expect(try await s3.listBuckets().map(\.name).contains("asi-objects"))

            let options = S3ObjectOptions(
                contentType: "text/plain", metadata: ["Colour": "blue", "owner": "asi"], acl: .publicRead,
                storageClass: .reducedRedundancy)
            let eTag = try await s3.putObject(
                bucket: "asi-objects", key: "dir/hello.txt", body: .string("hello, S3"), options: options)
            #expect(eTag.count > 2)
            let head = try await s3.headObject(bucket: "asi-objects", key: "dir/hello.txt")
            #expect(head.contentLength == 9)
            #expect(head.contentType == "text/plain")
            #expect(head.metadata == ["colour": "blue", "owner": "asi"])
            #expect(head.storageClass == .reducedRedundancy)
            #expect(head.eTag == eTag)
            let got = try await s3.getObject(bucket: "asi-objects", key: "dir/hello.txt")
            #expect(got.body == Array("hello, S3".utf8))
            let range = try await s3.getObject(bucket: "asi-objects", key: "dir/hello.txt", range: 7...8)
            #expect(range.body == Array("S3".utf8))

            // A file streamed up, then down to a file, then resumed from a partial download.
            let directory = try makeTemporaryDirectory(prefix: "asikit-s3-objects")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await offPool { try S3Moto.writeFile(directory + "/up.bin", size: 3 << 20) }
            try await s3.putObject(bucket: "asi-objects", key: "file.bin", fileAtPath: directory + "/up.bin")
            try await s3.downloadObject(bucket: "asi-objects", key: "file.bin", to: directory + "/down.bin")
            #expect(try await offPool { try S3Moto.sameFiles(directory + "/up.bin", directory + "/down.bin") })
            let partial = try Data(contentsOf: URL(filePath: directory + "/up.bin")).prefix(1 << 20)
            try partial.write(to: URL(filePath: directory + "/resumed.bin.download"))
            try await s3.downloadObject(bucket: "asi-objects", key: "file.bin", to: directory + "/resumed.bin")
            #expect(try await offPool { try S3Moto.sameFiles(directory + "/up.bin", directory + "/resumed.bin") })

            // Copies: metadata copied, or replaced.
            try await s3.copyObject(from: "asi-objects", key: "dir/hello.txt", to: "asi-objects", key: "copy1")
            #expect(try await s3.headObject(bucket: "asi-objects", key: "copy1").metadata["colour"] == "blue")
            try await s3.copyObject(
                from: "asi-objects", key: "dir/hello.txt", to: "asi-objects", key: "copy2",
                options: S3ObjectOptions(contentType: "text/x-new", metadata: ["colour": "red"]))
            let replaced = try await s3.headObject(bucket: "asi-objects", key: "copy2")
            #expect(replaced.metadata == ["colour": "red"])
            #expect(replaced.contentType == "text/x-new")

            // Typed errors.
            await #expect(throws: S3Error.self) { try await s3.deleteBucket("asi-objects") }
            do {
                try await s3.deleteBucket("asi-objects")
            } catch let error as S3Error {
                #expect(error.code == .bucketNotEmpty)
                #expect(error.status == 409)
            }
            try await s3.deleteObject(bucket: "asi-objects", key: "copy1")
            do {
                _ = try await s3.getObject(bucket: "asi-objects", key: "copy1")
                Issue.record("a deleted key was found")
            } catch let error as S3Error {
                #expect(error.code == .noSuchKey)
                #expect(error.status == 404)
            }
            do {
                _ = try await s3.headObject(bucket: "asi-objects", key: "copy1")
                Issue.record("a deleted key was found")
            } catch let error as S3Error {
                #expect(error.code == .notFound)
            }
            for key in ["dir/hello.txt", "file.bin", "copy2"] {
                try await s3.deleteObject(bucket: "asi-objects", key: key)
            }
            try await s3.deleteBucket("asi-objects")
            #expect(try await !s3.listBuckets().map(\.name).contains("asi-objects"))
            try await s3.shutdown()
        }
    }

    /// Keys with spaces, `+`, `%`, `~` and non-ASCII letters, and prefixes and delimiters with `/`, round-trip; a
    /// presigned `GET` fetches from a client that does not sign. Against moto without signature checks: moto 5.2
    /// answers 500 to any presigned URL with checks on, and rejects a signature over a percent-encoded path or
    /// query (boto3's too), so these encodings are proven by the AWS suites and moto proves the routing.
    @Test func encodedKeysAndPresignedURL() async throws {
        try await withMoto(checksSignatures: false) { peer in
            let s3 = try S3Moto.client(peer)
            try await s3.createBucket("asi-encoded")
            let keys = ["dir/a b+c%d~e ü.txt", "dir/sub/x", "top ü"]
            for key in keys { try await s3.putObject(bucket: "asi-encoded", key: key, body: .string(key)) }
            for key in keys { #expect(try await s3.getObject(bucket: "asi-encoded", key: key).body == Array(key.utf8)) }
            var pages: [S3ListPage] = []
            for try await page in s3.listObjects(bucket: "asi-encoded", prefix: "dir/", delimiter: "/") {
                pages.append(page)
            }
            #expect(pages.flatMap(\.objects).map(\.key) == ["dir/a b+c%d~e ü.txt"])
            #expect(pages.flatMap(\.commonPrefixes) == ["dir/sub/"])
            try await s3.copyObject(from: "asi-encoded", key: "top ü", to: "asi-encoded", key: "copy ü")
            #expect(try await s3.getObject(bucket: "asi-encoded", key: "copy ü").body == Array("top ü".utf8))

            let signer = SigV4Signer(
                credentials: AWSCredentials(accessKeyID: peer.accessKeyID, secretAccessKey: peer.secretAccessKey),
                region: "us-east-1")
            let request = s3.requests.getObject(bucket: "asi-encoded", key: "dir/a b+c%d~e ü.txt")
            let url = signer.presignedURL(for: request, expires: 600)
            let query = url.query ?? ""
            for name in [
                "X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Expires=600", "X-Amz-SignedHeaders=host", "X-Amz-Signature=",
            ] {
                #expect(query.contains(name))
            }
            let plain = Client(transport: .posix())
            let response = try await plain.send(Request(url: url))
            #expect(response.status.code == 200)
            #expect(response.body == Array("dir/a b+c%d~e ü.txt".utf8))
            try await plain.shutdown()
            try await s3.shutdown()
        }
    }

    /// A listing of 2,500 keys arrives in three pages of at most 1,000, every key once and in order; a delimited
    /// listing gives the common prefix.
    @Test func listingAcrossPages() async throws {
        try await withMoto { peer in
            let s3 = try S3Moto.client(peer)
            try await s3.createBucket("asi-list")
            let queue = RequestQueue(client: s3.client, configuration: .init(maxConcurrentRequests: 8))
            let keys = (0..<2_500).map { "k-" + String(format: "%05d", $0) }
            for key in keys { queue.add(s3.requests.putObject(bucket: "asi-list", key: key, body: .string(key))) }
            try await s3.putObject(bucket: "asi-list", key: "top.txt", body: .string("top"))
            let results = queue.results
            queue.go()
            var failures = 0
            for await result in results where (try? result.response().status.code) != 200 { failures += 1 }
            #expect(failures == 0)

            var pages: [S3ListPage] = []
            for try await page in s3.listObjects(bucket: "asi-list", prefix: "k-") { pages.append(page) }
            #expect(pages.map(\.objects.count) == [1_000, 1_000, 500])
            #expect(pages.flatMap(\.objects).map(\.key) == keys)
            #expect(pages.last?.isTruncated == false)

            var small: [S3ListPage] = []
            for try await page in s3.listObjects(bucket: "asi-list", maxKeys: 700, startAfter: "k-01999") {
                small.append(page)
            }
            #expect(small.map(\.objects.count) == [501])
            #expect(small.first?.objects.last?.key == "top.txt")

            var delimited: [S3ListPage] = []
            for try await page in s3.listObjects(bucket: "asi-list", delimiter: "-") { delimited.append(page) }
            #expect(delimited.flatMap(\.commonPrefixes) == ["k-"])
            #expect(delimited.flatMap(\.objects).map(\.key) == ["top.txt"])
            try await s3.shutdown()
        }
    }

    /// A wrong secret gives the typed `SignatureDoesNotMatch` (or `AccessDenied`) with 403.
    @Test func wrongSecretIsTyped() async throws {
        try await withMoto { peer in
            let s3 = try S3Moto.client(peer, secret: "not-the-secret")
            do {
                try await s3.createBucket("asi-denied")
                Issue.record("a wrong secret was accepted")
            } catch let error as S3Error {
                #expect(error.code == .signatureDoesNotMatch || error.code == .accessDenied)
                #expect(error.status == 403)
                #expect(!error.description.contains("not-the-secret"))
            }
            try await s3.shutdown()
            // The right key works on the same server.
            let allowed = try S3Moto.client(peer)
            try await allowed.createBucket("asi-allowed")
            try await allowed.shutdown()
        }
    }

    /// Virtual-host-style addressing (`bucket.host`), resolved to 127.0.0.1 like curl's `--resolve`.
    @Test func virtualHostStyle() async throws {
        try await withMoto { peer in
            let overrides = ["asi-vhost.s3.test:\(peer.port)": "127.0.0.1"]
            let s3 = try S3Moto.client(peer, style: .virtualHost, host: "s3.test", overrides: overrides)
            #expect(s3.requests.getObject(bucket: "asi-vhost", key: "k").url.host == "asi-vhost.s3.test")
            try await s3.createBucket("asi-vhost")
            try await s3.putObject(bucket: "asi-vhost", key: "v.txt", body: .string("virtual"))
            #expect(try await s3.getObject(bucket: "asi-vhost", key: "v.txt").body == Array("virtual".utf8))
            var keys: [String] = []
            for try await page in s3.listObjects(bucket: "asi-vhost") { keys += page.objects.map(\.key) }
            #expect(keys == ["v.txt"])
            try await s3.shutdown()
        }
    }
}
