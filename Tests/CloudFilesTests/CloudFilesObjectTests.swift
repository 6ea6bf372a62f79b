import CloudFiles
import Foundation
import HTTPCore
import HTTPPipeline
import TestSupport
import Testing

/// Account, container and object operations against a real OpenStack Swift, checked with python-swiftclient.
@Suite(.enabled(if: OpenStackSwiftPeer.shouldRun)) struct CloudFilesObjectTests {
    /// Containers and objects with metadata: create, stat, update, copy, expiry, get (whole and ranged), download,
    /// delete; swiftclient sees our metadata, and we see the metadata swiftclient posts.
    @Test func containersObjectsAndMetadata() async throws {
        try await withOpenStackSwift { peer in
            let files = SwiftTestSupport.client(peer, user: "t1:tester")
            try await files.createContainer("photos", metadata: ["Owner": "asi"])
            let container = try await files.containerInfo("photos")
            #expect(container.metadata == ["owner": "asi"])
            #expect(container.objectCount == 0)

            let options = CloudFilesObjectOptions(contentType: "text/plain", metadata: ["Color": "blue"])
            let eTag = try await files.putObject(
                container: "photos", name: "dir/hello world.txt", body: .string("hello, Swift"), options: options)
            #expect(eTag.count == 32)
            let info = try await files.objectInfo(container: "photos", name: "dir/hello world.txt")
            #expect(info.size == 12)
            #expect(info.contentType == "text/plain")
            #expect(info.metadata == ["color": "blue"])
            #expect(info.eTag == eTag)
            #expect(
                try await files.getObject(container: "photos", name: "dir/hello world.txt").body
                    == Array("hello, Swift".utf8))
            #expect(
                try await files.getObject(container: "photos", name: "dir/hello world.txt", range: 7...11).body
                    == Array("Swift".utf8))

            // swiftclient's stat sees our metadata; what it posts we read back.
            let stat = try peer.swiftclient(user: "t1:tester", ["stat", "photos", "dir/hello world.txt"])
            #expect(stat.status == 0)
            #expect(stat.output.contains("Meta Color: blue"), "\(stat.output)")
            #expect(
                try peer.swiftclient(user: "t1:tester", ["post", "-m", "Shade:dark", "photos", "dir/hello world.txt"])
                    .status == 0)
            #expect(
                try await files.objectInfo(container: "photos", name: "dir/hello world.txt").metadata
                    == ["shade": "dark"])

            // POST replaces object metadata and sets an expiry.
            try await files.updateObjectMetadata(
                container: "photos", name: "dir/hello world.txt",
                options: CloudFilesObjectOptions(metadata: ["Color": "red"], deleteAfter: 3600))
            let posted = try await files.objectInfo(container: "photos", name: "dir/hello world.txt")
            #expect(posted.metadata == ["color": "red"])
            let now = Int64(Date().timeIntervalSince1970)
            #expect(posted.deleteAt.map { $0 > now + 3000 && $0 <= now + 3700 } == true)

            // COPY keeps the source's metadata and adds ours.
            try await files.createContainer("backup")
            try await files.copyObject(
                container: "photos", name: "dir/hello world.txt", to: "backup", name: "copy.txt",
                options: CloudFilesObjectOptions(metadata: ["Copied": "yes"]))
            let copy = try await files.objectInfo(container: "backup", name: "copy.txt")
            #expect(copy.metadata == ["color": "red", "copied": "yes"])
            #expect(copy.eTag == eTag)

            // Download to a file, and a failed download leaves no file.
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try await files.downloadObject(container: "backup", name: "copy.txt", to: directory + "/copy.txt")
            #expect(FileManager.default.contents(atPath: directory + "/copy.txt") == Data("hello, Swift".utf8))
            await #expect(throws: CloudFilesError.self) {
                try await files.downloadObject(container: "backup", name: "missing", to: directory + "/missing")
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/missing"))

            // Account stat and metadata.
            try await files.updateAccountMetadata(["Project": "asikit"])
            let account = try await files.accountInfo()
            #expect(account.containerCount == 2)
            #expect(account.metadata["project"] == "asikit")
            #expect(try await files.listContainers().all().map(\.name) == ["backup", "photos"])

            try await files.deleteObject(container: "backup", name: "copy.txt")
            try await files.deleteContainer("backup")
            #expect(try await files.listContainers(prefix: "b").all().isEmpty)
        }
    }

    /// Typed errors with the server's status, message and transaction ID; local checks against `/info`'s limits;
    /// X-Delete-At.
    @Test func errorsAndLimits() async throws {
        try await withOpenStackSwift { peer in
            let files = SwiftTestSupport.client(peer, user: "t2:tester")
            let info = try await files.info()
            #expect(info.containerListingLimit == peer.listingLimit)
            #expect(info.supportsStaticLargeObjects && info.supportsBulkDelete && info.supportsTempURL)
            #expect(info.maxMetadataNameLength == 128)

            try await files.createContainer("errors")
            do {
                _ = try await files.getObject(container: "errors", name: "missing")
                Issue.record("a missing object was found")
            } catch let error as CloudFilesError {
                #expect(error.code == .notFound)
                #expect(error.status == 404)
                #expect(error.message.contains("Not Found"), "\(error.message)")
                #expect(error.transactionID?.hasPrefix("tx") == true)
            }
            try await files.putObject(container: "errors", name: "one", body: .string("1"))
            do {
                try await files.deleteContainer("errors")
                Issue.record("a container with an object was deleted")
            } catch let error as CloudFilesError {
                #expect(error.code == .conflict)
                #expect(error.status == 409)
            }
            // An ETag that does not match the bytes: Swift refuses with 422.
            do {
                try await files.putObject(
                    container: "errors", name: "checked", body: .string("abc"),
                    options: CloudFilesObjectOptions(eTag: String(repeating: "0", count: 32)))
                Issue.record("a wrong ETag was accepted")
            } catch let error as CloudFilesError {
                #expect(error.code == .badRequest && error.status == 422)
            }
            try await files.putObject(
                container: "errors", name: "checked", body: .string("abc"),
                options: CloudFilesObjectOptions(eTag: "900150983cd24fb0d6963f7d28e17f72"))
            // Over the limits: refused before sending.
            let long = String(repeating: "k", count: 129)
            do {
                try await files.updateContainerMetadata("errors", metadata: [long: "v"])
                Issue.record("a 129-byte metadata key was sent")
            } catch let error as CloudFilesError {
                #expect(error.code == .invalidInput)
                #expect(error.status == 0)
            }
            // X-Delete-At in the past is refused by Swift (400), in the future it is kept.
            let future = Date().addingTimeInterval(7200)
            try await files.putObject(
                container: "errors", name: "expiring", body: .string("x"),
                options: CloudFilesObjectOptions(deleteAt: future))
            #expect(
                try await files.objectInfo(container: "errors", name: "expiring").deleteAt
                    == Int64(future.timeIntervalSince1970.rounded(.down)))
            await #expect(throws: CloudFilesError.self) {
                try await files.putObject(
                    container: "errors", name: "expired", body: .string("x"),
                    options: CloudFilesObjectOptions(deleteAt: Date(timeIntervalSince1970: 1000)))
            }
        }
    }

    /// Against tempauth: a stale token kept in a credential store is renewed after Swift's 401 and the request
    /// succeeds; a wrong key is `.unauthorized`; a user without rights is `.forbidden`.
    @Test func tokensAgainstTempauth() async throws {
        try await withOpenStackSwift { peer in
            let store = SessionCredentialStore()
            let first = SwiftTestSupport.client(peer, credentialStore: store)
            let session = try await first.session()
            #expect(session.token.hasPrefix("AUTH_tk"))
            // Replace the stored token with one tempauth never issued.
            let scope = try #require(CredentialScope(url: peer.authURL, realm: "CloudFiles v1:test:tester"))
            #expect(await store.credential(for: scope)?.password == session.token)
            await store.save(
                Credential(user: session.storageURL.absoluteString, password: "AUTH_tk0000stale"), for: scope)
            let second = SwiftTestSupport.client(peer, credentialStore: store)
            #expect(try await second.session().token == "AUTH_tk0000stale")
            try await second.createContainer("renewed")
            #expect(await second.tokens.authenticationCount == 1)
            #expect(try await second.session().token != "AUTH_tk0000stale")
            #expect(try await store.credential(for: scope)?.password == second.session().token)

            do {
                _ = try await SwiftTestSupport.client(peer, key: "wrong").accountInfo()
                Issue.record("a wrong key was accepted")
            } catch let error as CloudFilesError {
                #expect(error.code == .unauthorized && error.status == 401)
                #expect(!error.description.contains("wrong"))
            }
            do {
                try await SwiftTestSupport.client(peer, user: "test:tester3", key: "testing3").createContainer("no")
                Issue.record("a plain member created a container")
            } catch let error as CloudFilesError {
                #expect(error.code == .forbidden && error.status == 403)
            }
        }
    }
}
