import Foundation
import TestSupport
import Testing

/// `cloudfiles` answers as python-swiftclient's `swift` does: both run side by side against one real OpenStack Swift
/// (accounts `t7` and `t8`, which no other test uses), and their exit codes and outputs are compared.
@Suite(.enabled(if: OpenStackSwiftPeer.shouldRun, "OpenStack Swift is not installed"))
struct CloudFilesCommandTests {
    /// upload (object naming, SLO, DLO), list (--prefix, --delimiter, -l), stat, download (-o, and both ways), post,
    /// copy: the same outputs as swiftclient's for the same objects.
    @Test func everydayCommandsAnswerAsSwiftclient() async throws {
        try await withOpenStackSwift { peer in
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-cli")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let both = SideBySide(peer: peer, user: "t7:tester", directory: directory)
            try FileManager.default.createDirectory(atPath: directory + "/d", withIntermediateDirectories: true)
            try Data("hello\n".utf8).write(to: URL(filePath: directory + "/a.txt"))
            try Data("deeper\n".utf8).write(to: URL(filePath: directory + "/d/b.txt"))
            var big = [UInt8](repeating: 0, count: 2_621_440)
            for index in big.indices { big[index] = UInt8(truncatingIfNeeded: index &* 7 &+ index >> 12) }
            try Data(big).write(to: URL(filePath: directory + "/big.bin"))

            // Upload: the same names printed (segments in any order), the same names stored.
            let files = ["a.txt", "./d/b.txt", directory + "/a.txt"]
            let ourUpload = try await both.ours(["upload", "mine"] + files)
            let theirUpload = try await both.theirs(["upload", "theirs"] + files)
            #expect(ourUpload.status == 0 && theirUpload.status == 0, "\(ourUpload)\n\(theirUpload)")
            #expect(ourUpload.lines.sorted() == theirUpload.lines.sorted())
            let slo = ["big.bin", "--segment-size", "1M", "--use-slo"]
            let ourSLO = try await both.ours(["upload", "mine"] + slo)
            let theirSLO = try await both.theirs(["upload", "theirs"] + slo)
            #expect(ourSLO.status == 0 && ourSLO.lines.sorted() == theirSLO.lines.sorted(), "\(ourSLO)\n\(theirSLO)")

            // A dynamic large object (the default with --segment-size), named by --object-name.
            let dlo = ["big.bin", "--object-name", "dlo.bin", "-S", "1048576"]
            let ourDLO = try await both.ours(["upload", "mine"] + dlo)
            let theirDLO = try await both.theirs(["upload", "theirs"] + dlo)
            #expect(ourDLO.status == 0 && ourDLO.lines.sorted() == theirDLO.lines.sorted(), "\(ourDLO)\n\(theirDLO)")

            // Listings of our container by both, with and without options.
            for options in [[], ["--prefix", "d/"], ["--delimiter", "/"], ["-l", "--delimiter", "/"], ["--lh"]] {
                let ours = try await both.ours(["list", "mine"] + options)
                let theirs = try await both.theirs(["list", "mine"] + options)
                #expect(ours.status == 0 && ours.stdout == theirs.stdout, "list \(options): \(ours)\n\(theirs)")
            }
            let ourContainers = try await both.ours(["list"])
            #expect(ourContainers.stdout == (try await both.theirs(["list"])).stdout)
            #expect(ourContainers.lines == ["mine", "mine_segments", "theirs", "theirs_segments"])

            // stat of the account, a container and the SLO, lined up the same way.
            for names in [[], ["mine"], ["mine", "big.bin"], ["mine", "dlo.bin"], ["mine", "a.txt"]] {
                let ours = try await both.ours(["stat"] + names)
                let theirs = try await both.theirs(["stat"] + names)
                #expect(ours.status == 0 && SideBySide.stable(ours) == SideBySide.stable(theirs), "\(ours)\n\(theirs)")
            }

            // Downloads both ways: theirs of our SLO, ours of their object, to -o files.
            let theirDownload = try await both.theirs(["download", "mine", "big.bin", "-o", "theirs.bin"])
            let ourDownload = try await both.ours(["download", "theirs", "big.bin", "-o", "ours.bin"])
            #expect(theirDownload.status == 0 && ourDownload.status == 0, "\(ourDownload)")
            #expect(ourDownload.lines.map { $0.split(separator: " ").first } == ["big.bin"])
            #expect(FileManager.default.contents(atPath: directory + "/ours.bin") == Data(big))
            #expect(FileManager.default.contents(atPath: directory + "/theirs.bin") == Data(big))

            // delete of the DLO takes its segments too, as swiftclient's does.
            let deleted = try await both.ours(["delete", "mine", "dlo.bin"])
            #expect(deleted.status == 0 && deleted.lines == ["dlo.bin"], "\(deleted)")
            let segments = try await both.theirs(["list", "mine_segments", "--prefix", "dlo.bin/"])
            #expect(segments.status == 0 && segments.stdout.isEmpty, "\(segments)")

            // post -m, then copy to a container that does not exist yet: swiftclient sees the metadata on the copy.
            let post = try await both.ours(["post", "-m", "Colour:Blue", "mine", "a.txt"])
            #expect(post.status == 0 && post.stdout.isEmpty, "\(post)")
            let ourCopy = try await both.ours(["copy", "mine", "a.txt", "--destination", "/copies/z.txt"])
            let theirCopy = try await both.theirs(["copy", "mine", "a.txt", "--destination", "/copies2/z.txt"])
            #expect(ourCopy.status == 0, "\(ourCopy)")
            #expect(ourCopy.stdout == theirCopy.stdout.replacingOccurrences(of: "copies2", with: "copies"))
            let copied = try await both.theirs(["stat", "copies", "z.txt"])
            #expect(copied.lines.map { String($0.drop { $0 == " " }) }.contains("Meta Colour: Blue"), "\(copied)")
        }
    }

    /// Failures: non-zero exit, nothing on stdout, one line on stderr (perhaps with `Failed Transaction ID:`) that
    /// starts as swiftclient's does; a failed download writes no file.
    @Test func failuresAnswerAsSwiftclient() async throws {
        try await withOpenStackSwift { peer in
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-fail")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let both = SideBySide(peer: peer, user: "t8:tester", directory: directory)
            try Data("x".utf8).write(to: URL(filePath: directory + "/x.txt"))
            #expect(try await both.ours(["upload", "here", "x.txt"]).status == 0)
            let cases: [([String], String)] = [
                (["stat", "missing"], "testing"), (["stat", "here", "no such/ñame"], "testing"),
                (["list", "missing"], "testing"), (["download", "here", "missing", "-o", "out.bin"], "testing"),
                (["delete", "here", "missing"], "testing"), (["post", "here", "missing"], "testing"),
                (["stat"], "wrong-key"), (["tempurl", "GET", "60", "/v1/AUTH_t8/here", "k"], "testing"),
            ]
            for (arguments, key) in cases {
                let ours = try await both.ours(arguments, key: key)
                let theirs = try await both.theirs(arguments, key: key)
                #expect(ours.status == 1 && theirs.status == 1, "\(arguments): \(ours)\n\(theirs)")
                #expect(ours.stdout.isEmpty, "\(arguments): \(ours)")
                let lines = ours.stderr.split(separator: "\n")
                #expect(
                    lines.count == 1 || (lines.count == 2 && lines[1].hasPrefix("Failed Transaction ID: tx")),
                    "\(arguments): \(ours)")
                let theirFirst = theirs.stderr.split(separator: "\n").first.map(String.init) ?? ""
                #expect(
                    !lines.isEmpty && theirFirst.hasPrefix(String(lines[0])), "\(arguments): \(ours)\n\(theirs)")
            }
            #expect(!FileManager.default.fileExists(atPath: directory + "/out.bin"))
            #expect(!FileManager.default.fileExists(atPath: directory + "/out.bin.download"))
        }
    }

    /// `delete CONTAINER` of more than 20 objects goes by bulk delete, prints
    /// what swiftclient prints, and leaves no container; `tempurl` prints what `swift tempurl --absolute` prints.
    @Test func deleteContainerByBulkDeleteAndTempURL() async throws {
        try await withOpenStackSwift { peer in
            let directory = try makeTemporaryDirectory(prefix: "asikit-cloudfiles-bulk")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let both = SideBySide(peer: peer, user: "t8:tester", directory: directory + "/")
            let names = (0..<25).map { "o\($0).txt" }
            for name in names { try Data(name.utf8).write(to: URL(filePath: directory + "/" + name)) }
            #expect(try await both.theirs(["upload", "bulk"] + names).status == 0)
            let deleted = try await both.ours(["delete", "bulk"])
            #expect(deleted.status == 0, "\(deleted)")
            #expect(deleted.lines.sorted() == (names + ["bulk"]).sorted())
            let gone = try await both.theirs(["stat", "bulk"])
            #expect(gone.status == 1 && gone.stderr.hasPrefix("Container 'bulk' not found"))

            let path = "/v1/AUTH_t8/c/dir/o bj.txt"
            let relative = try await both.ours(["tempurl", "get", "3600", path, "k3y"])
            let expires = relative.stdout.split(separator: "=").last.map { String($0.dropLast()) } ?? ""
            let theirs = try await both.theirs(["tempurl", "--absolute", "GET", expires, path, "k3y"])
            #expect(relative.status == 0 && relative.stdout == theirs.stdout, "\(relative)\n\(theirs)")
            let url = peer.url.absoluteString + "/v1/AUTH_t8/c/o"
            let ourURL = try await both.ours(["tempurl", "--absolute", "PUT", "1900000000", url, "k3y"])
            #expect(
                ourURL.stdout
                    == (try await both.theirs(["tempurl", "--absolute", "PUT", "1900000000", url, "k3y"])).stdout)
        }
    }
}
