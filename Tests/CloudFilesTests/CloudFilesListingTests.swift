import CloudFiles
import Foundation
import HTTPCore
import HTTPPipeline
import TestSupport
import Testing

/// Listings paged past the server's limit, archive extraction and bulk delete against a real OpenStack Swift.
@Suite(.enabled(if: OpenStackSwiftPeer.shouldRun)) struct CloudFilesListingTests {
    /// 1,200 objects made by one archive extraction (a tar written by Python's tarfile), listed in pages of at most
    /// 1,000 by marker until an empty page, with prefix, delimiter, end_marker and a limit above the server's
    /// (clamped, so no 412); then deleted by one bulk delete.
    @Test func pagedListingExtractionAndBulkDelete() async throws {
        try await withOpenStackSwift { peer in
            let log = RequestLog()
            let files = SwiftTestSupport.client(peer, user: "t3:tester", middleware: [log])
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-list")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let tar = directory + "/objects.tar"
            let script = """
                import io, sys, tarfile
                with tarfile.open(sys.argv[1], "w") as t:
                    for i in range(1200):
                        name = "d%d/obj-%05d" % (i % 3, i)
                        data = name.encode()
                        info = tarfile.TarInfo(name); info.size = len(data)
                        t.addfile(info, io.BytesIO(data))
                """
            #expect(
                try ChildProcess.run(OpenStackSwiftPeer.python!, ["-c", script, tar], logPath: directory + "/py.log")
                    == 0)
            try await files.createContainer("many")
            let extracted = try await files.extractArchive(try .file(atPath: tar), format: "tar", into: "many")
            #expect(extracted.succeeded == 1200)
            #expect(extracted.errors.isEmpty)

            var pages = [[CloudFilesObject]]()
            for try await page in files.listObjects(container: "many") { pages.append(page) }
            #expect(pages.map(\.count) == [1000, 200])
            let names = pages.flatMap { $0.map(\.name) }
            #expect(names.count == 1200 && Set(names).count == 1200)
            #expect(names == names.sorted())
            // Three GETs: two pages and the empty one that ends the listing.
            #expect(log.lines.filter { $0.hasPrefix("GET /v1/AUTH_t3/many?format=json") }.count == 3)

            // A limit above the server's 1,000 is clamped: Swift would answer 412.
            let limited = try await files.listObjects(container: "many", limit: 5000).all()
            #expect(limited.count == 1200)
            #expect(!log.lines.contains { $0.contains("limit=5000") })
            #expect(try await files.listObjects(container: "many", limit: 250).reduce(0) { count, _ in count + 1 } == 5)

            let d1 = try await files.listObjects(container: "many", prefix: "d1/").all()
            #expect(d1.count == 400)
            let directories = try await files.listObjects(container: "many", delimiter: "/").all()
            #expect(directories.map(\.name) == ["d0/", "d1/", "d2/"])
            #expect(directories.allSatisfy { $0.isDirectory })
            let bounded = try await files.listObjects(
                container: "many", prefix: "d0/", marker: "d0/obj-00003", endMarker: "d0/obj-00012"
            ).all()
            #expect(bounded.map(\.name) == ["d0/obj-00006", "d0/obj-00009"])
            #expect(
                try peer.swiftclient(user: "t3:tester", ["list", "many", "--prefix", "d2/"]).output.split(
                    separator: "\n"
                ).count
                    == 400)

            let deleted = try await files.bulkDelete(names.map { "many/" + $0 } + ["many/not-there"])
            #expect(deleted.succeeded == 1200)
            #expect(deleted.notFound == 1)
            #expect(log.lines.filter { $0.contains("bulk-delete") }.count == 1)
            #expect(try await files.containerInfo("many").objectCount == 0)
            #expect(try await files.bulkDelete(["many"]).succeeded == 1)
            await #expect(throws: CloudFilesError.self) { try await files.containerInfo("many") }
        }
    }
}
