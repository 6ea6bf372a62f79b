import ArgumentParser
import CloudFiles
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// `cloudfiles`: OpenStack Swift / Rackspace Cloud Files from the command line, answering as python-swiftclient's
/// `swift` command does, built on the `CloudFiles` module's public API.
@main
struct CloudFilesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cloudfiles",
        abstract: "OpenStack Swift object storage, with python-swiftclient's `swift` command line.",
        discussion: """
            Global options (-A/-U/-K/-V, or ST_AUTH/ST_USER/ST_KEY/ST_AUTH_VERSION) may come before or after \
            the subcommand. On failure: exit status 1, nothing on stdout, the error on stderr.
            """,
        subcommands: [
            StatCommand.self, ListCommand.self, UploadCommand.self, DownloadCommand.self, DeleteCommand.self,
            PostCommand.self, CopyCommand.self, TempURLCommand.self,
        ])

    /// Parses (global options first or last, as `swift` allows), runs, and reports a failure as one line.
    static func main() async {
        let arguments = GlobalArguments.reordered(Array(CommandLine.arguments.dropFirst()))
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            failure.report()
            Glibc.exit(1)
        } catch {
            exit(withError: error)
        }
    }
}
