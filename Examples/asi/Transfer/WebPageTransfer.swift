import FoundationEssentials
import HTTPCore
import WebPageArchiving

/// Runs `asi --webpage`: the page through the command line's client (its cookies, credentials, proxy, throttle,
/// cache and options), saved with ``WebPageArchiver``. Exit 22 when the page does not arrive with a 2xx status
/// (nothing is written), 0 otherwise, whatever happened to single resources.
struct WebPageTransfer {
    let context: TransferContext
    let flags: WebPageFlags

    func run(_ target: Target, output: String?) async -> Int32 {
        do {
            var options = try context.builder.make(for: target).options
            options.download = nil
            let configuration = try WebPageArchiver.Configuration(
                maxDepth: flags.maxDepth, maxTotalBytes: flags.maxSize, sameHostOnly: flags.sameHost, options: options)
            let archiver = WebPageArchiver(client: context.client, configuration: configuration)
            switch flags.mode {
            case .local:
                let path = output ?? "index.html"
                let slash = path.lastIndex(of: "/")
                let directory = slash.map { String(path[..<$0]) } ?? "."
                let file = slash.map { String(path[path.index(after: $0)...]) } ?? path
                report(try await archiver.archive(target.url, mode: .localFiles(directory: directory, pageFile: file)))
            case .data, nil:
                let page = try await archiver.archive(target.url, mode: .dataURIs)
                if let output, output != "-" {
                    do {
                        try Data(page.bytes).write(to: URL(filePath: output))
                    } catch {
                        throw WebPageArchiveError(.writeFailed, message: "Could not write \(output)", underlying: error)
                    }
                } else {
                    try Output.writeStandardOutput(page.bytes)
                }
                report(page)
            }
            return 0
        } catch let error as WebPageArchiveError {
            let code: Int32 = error.code == .pageStatus ? 22 : error.code == .writeFailed ? 23 : 63
            fail(code, error.message)
            return code
        } catch {
            let failure = TransferFailure(error)
            fail(failure.exitCode, failure.message)
            return failure.exitCode
        }
    }

    private func fail(_ code: Int32, _ message: String) {
        Output.writeError("asi: (\(code)) \(message)\n")
    }

    /// With `-v`, one line per resource: what happened and where it went.
    private func report(_ page: ArchivedWebPage) {
        guard context.verbose else { return }
        let url = (page.url.removingUserInfo() ?? page.url).absoluteString
        var lines = "* webpage: \(url), \(page.totalBytes) bytes of resources\n"
        for resource in page.resources {
            lines +=
                "* webpage: \(resource.outcome) \((resource.url.removingUserInfo() ?? resource.url).absoluteString)"
                + (resource.localPath.map { " -> " + $0 } ?? "") + "\n"
        }
        Output.writeError(lines)
    }
}
