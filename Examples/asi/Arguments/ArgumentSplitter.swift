#if canImport(Glibc)
import Glibc
#endif

/// The command line as `asi` reads it before swift-argument-parser does: URLs (positional arguments and `--url`
/// values) are taken out, `-K/--config` files are read in place, and `--next` separates groups.
///
/// swift-argument-parser copies the whole array of a repeated argument (and the set of where its values came
/// from) each time it appends one value, so N positional URLs cost it O(N²). The parser now sees only the
/// options; the URLs are set on the parsed command afterwards, and the time grows linearly with the number of URLs
/// (decision 0021). The walk follows the parser's rules for the names in ``ArgumentTable``: `--name=value`,
/// `--name value`, `-x value`, grouped short flags whose options take the next arguments in order, and `--` after
/// which everything is a URL. Anything else (an unknown name, `-x=value`) makes ``split(_:)`` answer `nil`, and
/// the parser reads the original command line and reports it.
struct ArgumentSplitter {
    /// One group of the command line, between `--next`s.
    struct Group: Sendable, Equatable {
        /// What the parser reads: the options, none of the URLs.
        var parserArguments: [String] = []
        /// The URLs in the order given.
        var urls: [String] = []
    }

    /// A split command line.
    struct Outcome: Sendable, Equatable {
        /// The groups, at least one.
        var groups: [Group]
        /// Warnings about config-file lines that were skipped or cut (`FILE:LINE: message`).
        var warnings: [String]
    }

    /// The names the parser knows.
    let table: ArgumentTable
    /// Reads a config file (`-` is standard input).
    var readFile: (String) throws(TransferFailure) -> String = ArgumentSplitter.readConfigFile

    /// How deeply config files may include each other (`config = other` inside a config file).
    static let maximumConfigDepth = 16

    /// Splits a command line.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The groups, or `nil` when an argument is not one the table knows.
    /// - Throws: `TransferFailure` 26 when a config file cannot be read.
    func split(_ arguments: [String]) throws(TransferFailure) -> Outcome? {
        var walk = Walk(table: table, readFile: readFile)
        guard try walk.commandLine(arguments) else { return nil }
        return Outcome(groups: walk.groups, warnings: walk.warnings)
    }

    /// Up to how many URL-like arguments the parser may read the command line itself: its quadratic cost is
    /// negligible there, and the table (swift-argument-parser's JSON description of `asi`, about 4 ms of CPU at
    /// start) is not built.
    static let parserURLLimit = 64

    /// Whether a command line needs the split: it names `--url` or `-K/--config`, or holds more than
    /// ``parserURLLimit`` arguments that do not start with a dash. A cheap scan, without the table.
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: `true` when ``split(_:)`` must read it.
    static func isNeeded(for arguments: [String]) -> Bool {
        var values = 0
        for argument in arguments {
            if argument.hasPrefix("--") {
                if argument.hasPrefix("--url") || argument.hasPrefix("--config") { return true }
            } else if argument.hasPrefix("-") {
                if argument.contains("K") { return true }
            } else {
                values += 1
                if values > parserURLLimit { return true }
            }
        }
        return false
    }

    /// Whether the parser takes `token` as a value rather than an option or `--`.
    static func isValue(_ token: String) -> Bool {
        !token.hasPrefix("-") || token == "-"
    }

    /// Reads a whole config file, or standard input for `-`.
    static func readConfigFile(_ path: String) throws(TransferFailure) -> String {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TransferFailure(26, "Cannot read config file '\(path)'.") }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw TransferFailure(26, "Cannot read config file '\(path)'.")
            }
            bytes.append(contentsOf: buffer[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
