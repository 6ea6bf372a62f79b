import ArgumentParser
import FoundationEssentials

/// Every name `asi` accepts and whether it takes a value, read from swift-argument-parser's own description of the
/// command (`_dumpHelp()`, the JSON behind `--experimental-dump-help`), so a new flag needs no second list.
///
/// ``ArgumentSplitter`` walks the command line with it before the parser does.
struct ArgumentTable: Sendable {
    /// What a name does with the argument after it.
    enum Kind: Sendable, Equatable {
        /// Takes no value (`-s`, `--compressed`).
        case flag
        /// Takes one value (`-o FILE`, `--output=FILE`).
        case option
    }

    /// Long names without their dashes.
    var long: [String: Kind] = [:]
    /// Short names.
    var short: [Character: Kind] = [:]
    /// Names spelt with one dash and several letters (`-name`), which the parser tries before short groups.
    var singleDashLong: Set<String> = []
    /// The long name of each short name that has one (so a config file's `-o FILE` becomes `--output=FILE`).
    var longNameOfShort: [Character: String] = [:]

    /// The table of a command's arguments.
    /// - Parameter command: The command whose flags and options are read.
    /// - Returns: Its names, or an empty table when the description cannot be read (every name is then unknown,
    ///   and the splitter leaves the command line to the parser).
    static func of(_ command: any ParsableArguments.Type) -> ArgumentTable {
        var table = ArgumentTable()
        guard let dump = try? JSONDecoder().decode(Dump.self, from: Data(command._dumpHelp().utf8)) else {
            return table
        }
        for argument in dump.command.arguments ?? [] {
            let kind: Kind
            switch argument.kind {
            case "flag": kind = .flag
            case "option": kind = .option
            default: continue
            }
            let names = argument.names ?? []
            let longName = names.first { $0.kind == "long" }?.name
            for name in names {
                switch name.kind {
                case "long": table.long[name.name] = kind
                case "short":
                    guard let letter = name.name.first, name.name.count == 1 else { continue }
                    table.short[letter] = kind
                    table.longNameOfShort[letter] = longName
                default: table.singleDashLong.insert(name.name)
                }
            }
        }
        return table
    }

    /// The part of the tool-info JSON the table needs.
    private struct Dump: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        struct Argument: Decodable {
            var kind: String
            var names: [Name]?
        }
        struct Command: Decodable {
            var arguments: [Argument]?
        }
        var command: Command
    }
}
