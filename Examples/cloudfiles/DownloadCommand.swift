import ArgumentParser
import CloudFiles
import FoundationEssentials

/// `cloudfiles download CONTAINER [OBJECT...]`: each object (every object of the container when none is named) to
/// a file of its name, directories made as needed, or one object to `-o FILE`. A failed download writes no file.
struct DownloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download", abstract: "Download objects from containers.")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: [.customShort("o"), .customLong("output")], help: "For a single object, the file to write.")
    var output: String?

    @Option(name: [.customShort("p"), .customLong("prefix")], help: "Only download items beginning with <prefix>.")
    var prefix: String?

    @Argument(help: "The container, then the objects.")
    var names: [String]

    func run() async throws {
        if output != nil && names.count != 2 {
            throw CommandFailure("-o option only allowed for single file downloads")
        }
        guard let container = names.first else {
            throw CommandFailure("Usage: cloudfiles download <container> [<object>] [...]")
        }
        if container.contains("/") { throw CommandFailure(slashWarning(container)) }
        let started = ContinuousClock.now
        let link = try await connection.connect()
        let authenticated = ContinuousClock.now
        var objects = Array(names.dropFirst())
        if objects.isEmpty {
            do {
                objects = try await link.files.listObjects(container: container, prefix: prefix).all().map(\.name)
            } catch {
                throw CommandFailure.container(error, container, method: "GET", at: link)
            }
        }
        let lines = Output()
        for object in objects {
            let path = output ?? object
            if object.hasSuffix("/") {
                try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                continue
            }
            let directory = URL(filePath: path).deletingLastPathComponent().path(percentEncoded: false)
            if path.contains("/") {
                try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            let begun = ContinuousClock.now
            let info: CloudFilesObjectInfo
            do { info = try await link.files.downloadObject(container: container, name: object, to: path) } catch {
                throw CommandFailure.object(error, container, object, method: "GET", at: link, notFoundLine: true)
            }
            let now = ContinuousClock.now
            let auth = Self.seconds(authenticated - started)
            let total = Self.seconds(now - started)
            let speed = Double(info.size) / max(Self.seconds(now - begun), 1e-6) / 1_000_000
            lines.line(
                "\(object) [auth \(Self.fixed(auth))s, headers \(Self.fixed(total))s, total \(Self.fixed(total))s, "
                    + "\(Self.fixed(speed)) MB/s]")
        }
        lines.flush()
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `%.3f`.
    static func fixed(_ value: Double) -> String {
        let thousandths = Int64((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
