import ArgumentParser
import CloudFiles
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// `cloudfiles list [CONTAINER]`: the account's containers or a container's objects, paged by marker until an
/// empty page (no `limit` sent), printed as `swift list` prints them.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Lists the containers for the account or the objects for a container.")

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: [.customShort("l"), .customLong("long")], help: "Long listing format, similar to ls -l.")
    var long = false

    @Flag(name: .customLong("lh"), help: "Report sizes in human readable format similar to ls -lh.")
    var human = false

    @Flag(name: [.customShort("t"), .customLong("totals")], help: "Used with -l or --lh, only report totals.")
    var totals = false

    @Option(name: [.customShort("p"), .customLong("prefix")], help: "Only list items beginning with the prefix.")
    var prefix: String?

    @Option(
        name: [.customShort("d"), .customLong("delimiter")],
        help: "Roll up items with the given delimiter. For containers only.")
    var delimiter: String?

    @Argument(help: "The container to list.")
    var names: [String] = []

    func run() async throws {
        let long = self.long || human
        if delimiter != nil && names.isEmpty { throw CommandFailure("-d option only allowed for container listings") }
        if totals && !long { throw CommandFailure("Listing totals only works with -l or --lh.") }
        guard names.count <= 1, !(names.first ?? "").contains("/") else {
            throw CommandFailure(
                "Usage: cloudfiles list [--long] [--lh] [--totals] [--prefix <prefix>] "
                    + "[--delimiter <delimiter>] [<container>]")
        }
        let link = try await connection.connect()
        let output = Output()
        if let container = names.first {
            var bytes: Int64 = 0
            do {
                for try await page in link.files.listObjects(container: container, prefix: prefix, delimiter: delimiter)
                {
                    for entry in page {
                        bytes += entry.bytes
                        guard long else {
                            output.line(entry.name)
                            continue
                        }
                        guard !totals else { continue }
                        let (date, time) = Self.dateAndTime(entry)
                        let type = entry.isDirectory ? "None" : entry.contentType
                        output.line(
                            printedBytes(entry.bytes, human: human) + " " + pad(date, 10) + " " + pad(time, 8) + " "
                                + pad(type, 24) + " " + entry.name)
                    }
                }
            } catch {
                throw CommandFailure.container(error, container, method: "GET", at: link)
            }
            if long { output.line(printedBytes(bytes, human: human)) }
        } else {
            var (count, bytes): (Int64, Int64) = (0, 0)
            do {
                for try await page in link.files.listContainers(prefix: prefix) {
                    for entry in page {
                        count += Int64(entry.count)
                        bytes += entry.bytes
                        guard long else {
                            output.line(entry.name)
                            continue
                        }
                        let head = StatFields(try await link.files.containerInfo(entry.name).headerFields)
                        guard !totals else { continue }
                        let stamp =
                            head["x-timestamp"].flatMap(Double.init).map(Self.datestamp)
                            ?? "????-??-?? ??:??:??"
                        output.line(
                            pad(String(entry.count), 12) + " " + printedBytes(entry.bytes, human: human) + " " + stamp
                                + " " + pad(head["x-storage-policy"] ?? "???", 15, left: true) + " " + entry.name)
                    }
                }
            } catch {
                throw CommandFailure.failed("Account GET", error, url: link.url())
            }
            if long { output.line(pad(printedBytes(count, human: true), 12) + " " + printedBytes(bytes, human: human)) }
        }
        output.flush()
    }

    /// The listing's `last_modified` cut at `T` and at the fraction, as swiftclient cuts it.
    static func dateAndTime(_ entry: CloudFilesObject) -> (String, String) {
        guard !entry.isDirectory else { return ("", "") }
        let parts = entry.lastModified.split(separator: "T", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return (entry.lastModified, "") }
        return (parts[0], String(parts[1].split(separator: ".").first ?? ""))
    }

    /// `%Y-%m-%d %H:%M:%S` in UTC.
    static func datestamp(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        let two = { (value: Int32) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
