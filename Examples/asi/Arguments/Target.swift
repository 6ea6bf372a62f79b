import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// One URL to fetch and where its body goes, planned from the arguments before anything is sent.
struct Target: Sendable {
    /// Where the body goes.
    enum Destination: Sendable, Equatable {
        case standardOutput
        /// A regular file (or a new one): saved by the library through a temporary file moved into place.
        case file(String)
        /// An existing path that is not a regular file (`/dev/null`, a symbolic link, a FIFO): written through as
        /// the body arrives, never replaced.
        case device(String)
    }

    var url: URL
    var destination: Destination
    /// Whether a partial output file is continued (`-C -`).
    var resumes: Bool

    /// Pairs URLs with `-o` files in order (curl's rule); `-O` names the rest after their URLs.
    static func plan(urls: [String], output: OutputFlags) throws(TransferFailure) -> [Target] {
        var targets: [Target] = []
        for (index, text) in urls.enumerated() {
            let url = try parse(text)
            var destination = Destination.standardOutput
            if index < output.outputs.count {
                let path = output.outputs[index]
                if path != "-" { destination = destinationFor(path) }
            } else if output.remoteName {
                let name = url.lastPathComponent
                guard !name.isEmpty, name != "/" else {
                    throw TransferFailure(23, "Remote file name has no length: \(text)")
                }
                destination = destinationFor(name)
            }
            var resumes = false
            if case .file = destination { resumes = output.continueAt == "-" }
            targets.append(Target(url: url, destination: destination, resumes: resumes))
        }
        return targets
    }

    /// `.file` for a new path or an existing regular file; `.device` for anything else (a symbolic link such as
    /// `/dev/stdout`, a device such as `/dev/null`, a FIFO), which must be written through and never replaced.
    static func destinationFor(_ path: String) -> Destination {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else { return .file(path) }
        return .device(path)
    }

    /// Parses a URL as curl does: `http://` is assumed when no scheme is given.
    static func parse(_ text: String) throws(TransferFailure) -> URL {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let url = URL(string: withScheme), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host(), !host.isEmpty
        else {
            throw TransferFailure(3, "URL rejected: malformed input: \(text)")
        }
        return url
    }
}
