import ArgumentParser
import CloudFiles
import HTTPCore

/// `cloudfiles stat [CONTAINER [OBJECT]]`: the account's, a container's or an object's head, lined up as `swift
/// stat` lines it up.
struct StatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stat", abstract: "Displays information for the account, container, or object.")

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .customLong("lh"), help: "Report sizes in human readable format similar to ls -lh.")
    var human = false

    @Argument(help: "The container, then the object.")
    var names: [String] = []

    func run() async throws {
        guard names.count <= 2 else { throw CommandFailure("Usage: cloudfiles stat [--lh] [<container> [<object>]]") }
        if let container = names.first, container.contains("/") {
            throw CommandFailure(slashWarning(container))
        }
        let link = try await connection.connect()
        let output = Output()
        let bytes = { (text: String?) in printedBytes(Int64(text ?? "") ?? 0, human: human).drop { $0 == " " } }
        switch names.count {
        case 0:
            let head: CloudFilesAccountInfo
            do { head = try await link.files.accountInfo() } catch {
                throw CommandFailure.failed("Account HEAD", error, url: link.url())
            }
            let fields = StatFields(head.headerFields)
            var items: [(String, String)] = [
                ("Account", link.account), ("Containers", String(head.containerCount)),
                ("Objects", String(bytes(fields["x-account-object-count"]))),
                ("Bytes", String(bytes(fields["x-account-bytes-used"]))),
            ]
            let prefix = "x-account-storage-policy-"
            var policies = [String]()
            for (name, _) in fields.pairs where name.hasPrefix(prefix) {
                let policy = String(
                    name.dropFirst(prefix.count).split(separator: "-").dropLast(2).joined(separator: "-"))
                if !policies.contains(policy) { policies.append(policy) }
            }
            for policy in policies {
                let base = prefix + policy
                if let count = fields[base + "-container-count"] {
                    items.append(("Containers in policy \"\(policy)\"", String(bytes(count))))
                }
                items.append(("Objects in policy \"\(policy)\"", String(bytes(fields[base + "-object-count"]))))
                items.append(("Bytes in policy \"\(policy)\"", String(bytes(fields[base + "-bytes-used"]))))
            }
            items += fields.items(
                metaPrefix: "x-account-meta-",
                excluding: [
                    "content-length", "date", "x-account-container-count", "x-account-object-count",
                    "x-account-bytes-used",
                ], excludingPrefix: prefix)
            StatFields.print(items, to: output)
        case 1:
            let container = names[0]
            let head: CloudFilesContainerInfo
            do { head = try await link.files.containerInfo(container) } catch {
                throw CommandFailure.container(error, container, method: "HEAD", at: link)
            }
            let fields = StatFields(head.headerFields)
            var items: [(String, String)] = [
                ("Account", link.account), ("Container", container),
                ("Objects", String(bytes(fields["x-container-object-count"]))),
                ("Bytes", String(bytes(fields["x-container-bytes-used"]))),
                ("Read ACL", fields["x-container-read"] ?? ""), ("Write ACL", fields["x-container-write"] ?? ""),
                ("Sync To", fields["x-container-sync-to"] ?? ""), ("Sync Key", fields["x-container-sync-key"] ?? ""),
            ]
            items += fields.items(
                metaPrefix: "x-container-meta-",
                excluding: [
                    "content-length", "date", "x-container-object-count", "x-container-bytes-used",
                    "x-container-read", "x-container-write", "x-container-sync-to", "x-container-sync-key",
                ])
            StatFields.print(items, to: output)
        default:
            let (container, object) = (names[0], names[1])
            let head: CloudFilesObjectInfo
            do { head = try await link.files.objectInfo(container: container, name: object) } catch {
                throw CommandFailure.object(error, container, object, method: "HEAD", at: link)
            }
            let fields = StatFields(head.headerFields)
            var items: [(String, String)] = [
                ("Account", link.account), ("Container", container), ("Object", object),
                ("Content Type", fields["content-type"] ?? ""),
                ("Content Length", String(bytes(fields["content-length"]))),
                ("Last Modified", fields["last-modified"] ?? ""), ("ETag", fields["etag"] ?? ""),
                ("Manifest", fields["x-object-manifest"] ?? ""),
            ]
            items += fields.items(
                metaPrefix: "x-object-meta-",
                excluding: ["content-type", "content-length", "last-modified", "etag", "date", "x-object-manifest"])
            StatFields.print(items.filter { !$0.1.isEmpty }, to: output)
        }
        output.flush()
    }
}

/// `swift`'s warning for a container name holding `/`.
func slashWarning(_ container: String) -> String {
    let meant = container.replacingFirst("/", with: " ")
    return "WARNING: / in container name; you might have meant '\(meant)' instead of '\(container)'."
}

extension String {
    /// The string with its first `target` replaced.
    func replacingFirst(_ target: Character, with replacement: String) -> String {
        guard let index = firstIndex(of: target) else { return self }
        return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
    }
}
