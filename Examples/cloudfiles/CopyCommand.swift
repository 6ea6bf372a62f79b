import ArgumentParser
import CloudFiles

/// `cloudfiles copy CONTAINER OBJECT... [--destination /CONTAINER[/OBJECT]] [-m name:value]`: server-side copies
/// (`COPY`), creating the destination container first, as `swift copy` does; without a destination, each object is
/// copied onto itself with the new metadata.
struct CopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy", abstract: "Copies object to new destination, optionally updates objects metadata.")

    @OptionGroup var connection: ConnectionOptions

    @Option(name: [.customShort("d"), .customLong("destination")], help: "/container[/object] to copy to.")
    var destination: String?

    @Option(name: [.customShort("m"), .customLong("meta")], help: "A metadata item, name:value (repeatable).")
    var meta: [String] = []

    @Argument(help: "The container, then the objects.")
    var names: [String] = []

    func run() async throws {
        guard names.count >= 2 else {
            throw CommandFailure(
                "Usage: cloudfiles copy [--destination </container/object>] [--meta <name:value>] "
                    + "<container> <object> [<object>] [...]")
        }
        let container = names[0]
        if container.contains("/") { throw CommandFailure(slashWarning(container)) }
        let objects = Array(names.dropFirst())
        var target: (container: String, object: String?)?
        if let destination {
            let parts = destination.drop { $0 == "/" }.split(separator: "/", maxSplits: 1).map(String.init)
            guard let first = parts.first else { throw CommandFailure("Invalid destination \(destination)") }
            target = (first, parts.count == 2 ? parts[1] : nil)
            if target?.object != nil && objects.count > 1 {
                throw CommandFailure("Combination of multiple objects and destination including object is invalid")
            }
        }
        let options = CloudFilesObjectOptions(metadata: try MetaArguments.pairs(meta))
        let link = try await connection.connect()
        let output = Output()
        if let target {
            do { try await link.files.createContainer(target.container) } catch {
                throw CommandFailure.container(error, target.container, method: "PUT", at: link)
            }
            output.line("created container \(target.container)")
        }
        for object in objects {
            let to = (container: target?.container ?? container, object: target?.object ?? object)
            do {
                try await link.files.copyObject(
                    container: container, name: object, to: to.container, name: to.object, options: options)
            } catch {
                throw CommandFailure.object(error, container, object, method: "COPY", at: link)
            }
            output.line(
                "\(container)/\(object) copied to " + (target == nil ? "<self>" : "/\(to.container)/\(to.object)"))
        }
        output.flush()
    }
}
