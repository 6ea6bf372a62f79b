import ArgumentParser
import CloudFiles
import HTTPCore

/// `cloudfiles post [CONTAINER [OBJECT]] -m name:value`: updates the account's, a container's (creating it when
/// missing, as `swift post` does) or an object's metadata. Prints nothing.
struct PostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post", abstract: "Updates meta information for the account, container, or object.")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: [.customShort("m"), .customLong("meta")], help: "A metadata item, name:value (repeatable).")
    var meta: [String] = []

    @Option(name: [.customShort("H"), .customLong("header")], help: "A request header, name:value (repeatable).")
    var header: [String] = []

    @Option(name: [.customShort("r"), .customLong("read-acl")], help: "The container's read ACL.")
    var readACL: String?

    @Option(name: [.customShort("w"), .customLong("write-acl")], help: "The container's write ACL.")
    var writeACL: String?

    @Argument(help: "The container, then the object.")
    var names: [String] = []

    func run() async throws {
        guard names.count <= 2 else { throw CommandFailure("Usage: cloudfiles post [<container> [<object>]]") }
        if (readACL != nil || writeACL != nil) && names.isEmpty {
            throw CommandFailure("-r, -w, -t, and -k options only allowed for containers")
        }
        if let container = names.first, container.contains("/") { throw CommandFailure(slashWarning(container)) }
        let metadata = try MetaArguments.pairs(meta)
        var fields = HTTPFields()
        for (name, value) in try MetaArguments.pairs(header) {
            guard let field = HTTPField.Name(name) else { throw CommandFailure("Invalid header name \(name)") }
            fields[field] = value
        }
        if let readACL { fields[HTTPField.Name("X-Container-Read")!] = readACL }
        if let writeACL { fields[HTTPField.Name("X-Container-Write")!] = writeACL }
        let link = try await connection.connect()
        switch names.count {
        case 0:
            do { try await link.files.updateAccountMetadata(metadata, headerFields: fields) } catch {
                throw CommandFailure.failed("Account POST", error, url: link.url())
            }
        case 1:
            let container = names[0]
            do {
                try await link.files.updateContainerMetadata(container, metadata: metadata, headerFields: fields)
            } catch let error as CloudFilesError where error.status == 404 {
                do { try await link.files.createContainer(container, metadata: metadata, headerFields: fields) } catch {
                    throw CommandFailure.failed("Container PUT", error, url: link.url(container))
                }
            } catch {
                throw CommandFailure.failed("Container POST", error, url: link.url(container))
            }
        default:
            let (container, object) = (names[0], names[1])
            do {
                try await link.files.updateObjectMetadata(
                    container: container, name: object,
                    options: CloudFilesObjectOptions(metadata: metadata, headerFields: fields))
            } catch {
                throw CommandFailure.object(error, container, object, method: "POST", at: link)
            }
        }
    }
}
