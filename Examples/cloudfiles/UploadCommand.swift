import ArgumentParser
import CloudFiles
import FoundationEssentials
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// `cloudfiles upload CONTAINER FILE_OR_DIRECTORY...`: creates the container, then puts each file (a directory's
/// files, walked) as an object named as `swift upload` names it: the path as given, without `./` or a leading `/`.
/// With `--segment-size`, a file larger than a segment becomes a dynamic large object (static with `--use-slo`).
struct UploadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload", abstract: "Uploads specified files and directories to the given container.")

    @OptionGroup var connection: ConnectionOptions

    @Option(
        name: [.customShort("S"), .customLong("segment-size")],
        help: "Upload files larger than this in segments (bytes, or with a B, K, M or G suffix).")
    var segmentSize: String?

    @Option(name: [.customShort("C"), .customLong("segment-container")], help: "The segments' container.")
    var segmentContainer: String?

    @Flag(name: .customLong("use-slo"), help: "With --segment-size, a static large object instead of a dynamic one.")
    var useSLO = false

    @Option(name: .customLong("object-name"), help: "The object's name (or a directory's prefix) instead of the path.")
    var objectName: String?

    @Option(name: [.customShort("m"), .customLong("meta")], help: "A metadata item, name:value (repeatable).")
    var meta: [String] = []

    @Argument(help: "The container.")
    var container: String

    @Argument(help: "The files and directories.")
    var paths: [String]

    func run() async throws {
        if container.contains("/") { throw CommandFailure(slashWarning(container)) }
        if objectName != nil && paths.count > 1 {
            throw CommandFailure("object-name only be used with 1 file or dir")
        }
        let segment = try segmentSize.map(Self.segmentBytes)
        let metadata = try MetaArguments.pairs(meta)
        var files = [(path: String, name: String)]()
        for path in paths {
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure("Local file '\(path)' not found")
            }
            let found =
                Self.isDirectory(path)
                ? try FileManager.default.subpathsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
                    .filter { !Self.isDirectory($0) } : [path]
            for file in found {
                var name = objectName.map { file.replacingFirstOccurrence(of: path, with: $0) } ?? file
                if name.hasPrefix("./") { name.removeFirst(2) }
                while name.hasPrefix("/") { name.removeFirst() }
                files.append((file, name))
            }
        }
        let link = try await connection.connect()
        do { try await link.files.createContainer(container) } catch {
            throw CommandFailure.container(error, container, method: "PUT", at: link)
        }
        let output = Output()
        for file in files {
            var options = CloudFilesObjectOptions(metadata: metadata)
            let size = Self.size(file.path)
            do {
                if let segment, size > segment {
                    let configuration = LargeObjectConfiguration(
                        kind: useSLO ? .staticManifest : .dynamicManifest, segmentSize: segment,
                        segmentContainer: segmentContainer)
                    let upload = try await link.files.uploadLargeObject(
                        container: container, name: file.name, fromFile: file.path, options: options,
                        configuration: configuration)
                    for index in 0..<upload.segmentCount { output.line("\(file.name) segment \(index)") }
                } else {
                    options.metadata["Mtime"] = Self.mtime(file.path)
                    try await link.files.putObject(
                        container: container, name: file.name, body: try .file(atPath: file.path), options: options)
                }
            } catch {
                throw CommandFailure.object(error, container, file.name, method: "PUT", at: link)
            }
            output.line(file.name)
        }
        output.flush()
    }

    /// `-S`'s value in bytes: digits, or digits and `B`, `K`, `M` or `G` (powers of 1024).
    static func segmentBytes(_ text: String) throws -> Int64 {
        var value: Int64?
        if let bytes = Int64(text) {
            value = bytes
        } else if let last = text.last, let power = "BKMG".firstIndex(of: Character(last.uppercased())),
            let count = Int64(text.dropLast())
        {
            value = count << (10 * "BKMG".distance(from: "BKMG".startIndex, to: power))
        }
        guard let value else { throw CommandFailure("Invalid segment size") }
        guard value > 0 else { throw CommandFailure("segment-size should be positive") }
        return value
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func size(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// The file's modification time as swiftclient writes `X-Object-Meta-Mtime` (`%f`).
    static func mtime(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "0.000000" }
        let micros = String(info.st_mtim.tv_nsec / 1000)
        return "\(info.st_mtim.tv_sec)." + String(repeating: "0", count: 6 - micros.count) + micros
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced (Python's `replace(a, b, 1)`).
    func replacingFirstOccurrence(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(target) {
                return String(self[..<index]) + replacement + String(self[self.index(index, offsetBy: target.count)...])
            }
            index = self.index(after: index)
        }
        return self
    }
}
