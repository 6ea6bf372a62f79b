import ArgumentParser
import CloudFiles
import FoundationEssentials

/// `cloudfiles delete CONTAINER [OBJECT...]`: the objects (with a large object's segments, as `swift delete` does
/// unless `--leave-segments`), or the container: every object first (by bulk delete when `/info` advertises it and
/// there are more than 20, one `DELETE` each otherwise), then the container.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a container or objects within a container.")

    @OptionGroup var connection: ConnectionOptions

    @Flag(name: .customLong("leave-segments"), help: "Do not delete segments of manifest objects.")
    var leaveSegments = false

    @Option(name: [.customShort("p"), .customLong("prefix")], help: "Only delete items beginning with <prefix>.")
    var prefix: String?

    @Argument(help: "The container, then the objects.")
    var names: [String]

    /// More objects than this go by bulk delete, as in swiftclient.
    static let bulkThreshold = 20

    func run() async throws {
        guard let container = names.first else {
            throw CommandFailure("Usage: cloudfiles delete <container> [<object>] [...]")
        }
        if container.contains("/") { throw CommandFailure(slashWarning(container)) }
        let link = try await connection.connect()
        let output = Output()
        var objects = Array(names.dropFirst())
        let wholeContainer = objects.isEmpty
        if wholeContainer {
            do {
                objects = try await link.files.listObjects(container: container, prefix: prefix).all().map(\.name)
            } catch let error as CloudFilesError where error.status == 404 {
                throw CommandFailure(
                    "Error Deleting: \(container): \"Container '\(container)' not found\" container:\(container)")
            } catch {
                throw CommandFailure.container(error, container, method: "GET", at: link)
            }
        }
        let info = try? await link.files.info()
        if wholeContainer, objects.count > Self.bulkThreshold, info?.supportsBulkDelete == true {
            let result: CloudFilesBulkResult
            do { result = try await link.files.bulkDelete(objects.map { container + "/" + $0 }) } catch {
                throw CommandFailure.failed("Bulk delete", error, url: link.url())
            }
            if let failure = result.errors.first {
                throw CommandFailure("Error Deleting: \(failure.path.drop { $0 == "/" }): \(failure.status)")
            }
            for object in objects { output.line(object) }
        } else {
            for object in objects {
                do {
                    try await deleteObject(container, object, link)
                } catch {
                    let failure = CommandFailure.object(error, container, object, method: "DELETE", at: link)
                    throw CommandFailure(
                        "Error Deleting: \(container)/\(object): \(failure.message)",
                        transactionID: failure.transactionID)
                }
                output.line(object)
            }
        }
        if wholeContainer && prefix == nil {
            do { try await link.files.deleteContainer(container) } catch {
                let failure = CommandFailure.failed("Container DELETE", error, url: link.url(container))
                throw CommandFailure(
                    "Error Deleting: \(container): \(failure.message)", transactionID: failure.transactionID)
            }
            output.line(container)
        }
        output.flush()
    }

    /// Deletes an object; a static large object with its segments (`?multipart-manifest=delete`), a dynamic one's
    /// segments after its manifest, unless `--leave-segments`.
    private func deleteObject(_ container: String, _ object: String, _ link: Connection) async throws {
        guard !leaveSegments else {
            try await link.files.deleteObject(container: container, name: object)
            return
        }
        let head = try await link.files.objectInfo(container: container, name: object)
        try await link.files.deleteObject(
            container: container, name: object, includingSegments: head.isStaticLargeObject)
        if let manifest = head.objectManifest, let slash = manifest.firstIndex(of: "/") {
            let segmentContainer = percentDecoded(String(manifest[..<slash]))
            let segmentPrefix = String(manifest[manifest.index(after: slash)...])
            let segments = try await link.files.listObjects(
                container: segmentContainer, prefix: percentDecoded(segmentPrefix)
            ).all()
            for segment in segments {
                try await link.files.deleteObject(container: segmentContainer, name: segment.name)
            }
        }
    }
}

/// `%XX` escapes decoded (an `X-Object-Manifest` is percent-encoded); invalid escapes are kept.
func percentDecoded(_ text: String) -> String {
    var bytes = [UInt8]()
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
        if byte == UInt8(ascii: "%"), utf8.count >= 2,
            let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
        {
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
