import CloudFiles
import Foundation
import HTTPCore
import HTTPPipeline
import TestSupport
import Testing

/// Static and dynamic large objects against a real OpenStack Swift, both ways with python-swiftclient, and a
/// resumed static upload that sends only the missing segments.
@Suite(.enabled(if: OpenStackSwiftPeer.shouldRun)) struct CloudFilesLargeObjectTests {
    /// A 5 MiB file as an SLO of 1 MiB segments (5 segments through the queue): swiftclient downloads the same bytes
    /// and its stat sees the manifest and metadata. Two segments deleted, the upload run again: only those two are
    /// sent. Deleting with the segments empties the segment container.
    @Test func staticLargeObjectResumed() async throws {
        try await withOpenStackSwift { peer in
            let log = RequestLog()
            let files = SwiftTestSupport.client(peer, user: "t4:tester", middleware: [log])
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-slo")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try SwiftTestSupport.writeFile(directory + "/big.bin", size: 5 << 20)
            try await files.createContainer("large")
            let configuration = LargeObjectConfiguration(segmentSize: 1 << 20, maxConcurrentSegments: 3)
            let first = try await files.uploadLargeObject(
                container: "large", name: "big.bin", fromFile: directory + "/big.bin",
                options: CloudFilesObjectOptions(metadata: ["Kind": "slo"]), configuration: configuration)
            #expect(first.segmentCount == 5 && first.segmentsSent == 5)
            #expect(first.segmentContainer == "large_segments")
            #expect(first.segmentPrefix.hasPrefix("big.bin/slo/"))
            let info = try await files.objectInfo(container: "large", name: "big.bin")
            #expect(info.isStaticLargeObject)
            #expect(info.size == 5 << 20)
            #expect(info.metadata["kind"] == "slo")

            let stat = try peer.swiftclient(user: "t4:tester", ["stat", "large", "big.bin"])
            #expect(stat.output.contains("X-Static-Large-Object: True"), "\(stat.output)")
            #expect(stat.output.contains("Meta Kind: slo"), "\(stat.output)")
            #expect(
                try peer.swiftclient(
                    user: "t4:tester", ["download", "large", "big.bin", "-o", directory + "/theirs.bin"]
                ).status == 0)
            #expect(SwiftTestSupport.sameFiles(directory + "/big.bin", directory + "/theirs.bin"))

            // Resume: two segments gone, the same upload again sends those two only.
            let segments = try await files.listObjects(container: "large_segments").all().map(\.name)
            #expect(segments.count == 5)
            try await files.deleteObject(container: "large_segments", name: segments[1])
            try await files.deleteObject(container: "large_segments", name: segments[3])
            let before = log.lines.count
            let second = try await files.uploadLargeObject(
                container: "large", name: "big.bin", fromFile: directory + "/big.bin", configuration: configuration)
            #expect(second.segmentsSent == 2)
            let sent = log.lines[before...].filter { $0.hasPrefix("PUT /v1/AUTH_t4/large_segments/") }
            #expect(sent.sorted() == [segments[1], segments[3]].map { "PUT /v1/AUTH_t4/large_segments/" + $0 })
            let (_, body) = try await files.getObject(container: "large", name: "big.bin")
            #expect(Data(body) == FileManager.default.contents(atPath: directory + "/big.bin"))

            // An empty file: a plain empty object, no segment.
            _ = FileManager.default.createFile(atPath: directory + "/empty.bin", contents: nil)
            let empty = try await files.uploadLargeObject(
                container: "large", name: "empty.bin", fromFile: directory + "/empty.bin", configuration: configuration)
            #expect(empty.segmentCount == 0)
            #expect(try await files.objectInfo(container: "large", name: "empty.bin").size == 0)

            try await files.deleteObject(container: "large", name: "big.bin", includingSegments: true)
            #expect(try await files.listObjects(container: "large_segments").all().isEmpty)
        }
    }

    /// A 5 MiB DLO of 1 MiB segments uploaded by us and downloaded by swiftclient; an SLO uploaded by swiftclient
    /// (`--use-slo`) downloaded by us.
    @Test func dynamicLargeObjectAndSwiftclientUpload() async throws {
        try await withOpenStackSwift { peer in
            let files = SwiftTestSupport.client(peer, user: "t5:tester")
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-dlo")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            try SwiftTestSupport.writeFile(directory + "/big.bin", size: 5 << 20)
            try await files.createContainer("dynamic")
            let upload = try await files.uploadLargeObject(
                container: "dynamic", name: "big.bin", fromFile: directory + "/big.bin",
                configuration: LargeObjectConfiguration(kind: .dynamicManifest, segmentSize: 1 << 20))
            #expect(upload.segmentsSent == 5)
            let info = try await files.objectInfo(container: "dynamic", name: "big.bin")
            #expect(info.objectManifest == "dynamic_segments/" + upload.segmentPrefix)
            #expect(info.size == 5 << 20)
            let stat = try peer.swiftclient(user: "t5:tester", ["stat", "dynamic", "big.bin"])
            #expect(stat.output.contains("Manifest: dynamic_segments/big.bin/"), "\(stat.output)")
            #expect(
                try peer.swiftclient(
                    user: "t5:tester", ["download", "dynamic", "big.bin", "-o", directory + "/theirs.bin"]
                ).status == 0)
            #expect(SwiftTestSupport.sameFiles(directory + "/big.bin", directory + "/theirs.bin"))

            // The other way: swiftclient's SLO, our download.
            let theirs = try peer.swiftclient(
                user: "t5:tester",
                [
                    "upload", "--use-slo", "--segment-size", "1048576", "--object-name", "up.bin", "dynamic",
                    directory + "/big.bin",
                ])
            #expect(theirs.status == 0, "\(theirs.output)")
            let head = try await files.objectInfo(container: "dynamic", name: "up.bin")
            #expect(head.isStaticLargeObject)
            try await files.downloadObject(container: "dynamic", name: "up.bin", to: directory + "/ours.bin")
            #expect(SwiftTestSupport.sameFiles(directory + "/big.bin", directory + "/ours.bin"))
        }
    }
}
