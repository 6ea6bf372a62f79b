/// The tokenizer and entry builder behind ``NetrcFile/init(parsing:)``.
enum NetrcParser {
    private enum Expecting { case keyword, machine, login, password, skipped }

    static func parse(_ bytes: [UInt8]) throws(NetrcFile.SyntaxError) -> [NetrcFile.Entry] {
        var entries: [NetrcFile.Entry] = []
        var current: NetrcFile.Entry?
        var expecting = Expecting.keyword
        var inMacro = false
        for (number, rawLine) in lines(bytes).enumerated() {
            // A NUL ends the line, as in curl (which reads the line as a C string).
            let line = rawLine.prefix { $0 != 0 }
            if inMacro {
                if line.allSatisfy({ $0 == 0x0D }) { inMacro = false }  // an empty line ends a macdef
                continue
            }
            var index = line.startIndex
            while let (token, quoted, next) = try nextToken(line, from: index, lineNumber: number + 1) {
                index = next
                if !quoted, expecting == .keyword, token.first == UInt8(ascii: "#") { break }
                let text = String(decoding: token, as: UTF8.self)
                switch expecting {
                case .machine:
                    current = NetrcFile.Entry(machine: text)
                    expecting = .keyword
                    continue
                case .login:
                    current?.login = text
                    expecting = .keyword
                    continue
                case .password:
                    current?.password = text
                    expecting = .keyword
                    continue
                case .skipped:
                    expecting = .keyword
                    continue
                case .keyword:
                    break
                }
                switch text {
                case "machine", "default", "macdef":
                    if let current { entries.append(current) }
                    current = text == "default" ? NetrcFile.Entry(machine: nil) : nil
                    if text == "machine" { expecting = .machine }
                    if text == "macdef" { inMacro = true }
                case "login" where current != nil: expecting = .login
                case "password" where current != nil: expecting = .password
                case "account": expecting = .skipped
                default: break
                }
                if inMacro { break }
            }
        }
        if let current { entries.append(current) }
        return entries
    }

    /// The file's lines, split at line feeds (a carriage return before one stays, and is white space).
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// The next token from `index`: its bytes, whether it was quoted, and where the rest of the line starts.
    private static func nextToken(
        _ line: ArraySlice<UInt8>, from index: Int, lineNumber: Int
    ) throws(NetrcFile.SyntaxError) -> ([UInt8], Bool, Int)? {
        var index = index
        while index < line.endIndex, isSpace(line[index]) { index += 1 }
        guard index < line.endIndex else { return nil }
        guard line[index] == UInt8(ascii: "\"") else {
            let start = index
            while index < line.endIndex, !isSpace(line[index]) { index += 1 }
            return (Array(line[start..<index]), false, index)
        }
        var token: [UInt8] = []
        index += 1
        while index < line.endIndex {
            let byte = line[index]
            if byte == UInt8(ascii: "\"") { return (token, true, index + 1) }
            if byte == UInt8(ascii: "\\"), index + 1 < line.endIndex {
                index += 1
                switch line[index] {
                case UInt8(ascii: "n"): token.append(0x0A)
                case UInt8(ascii: "r"): token.append(0x0D)
                case UInt8(ascii: "t"): token.append(0x09)
                default: token.append(line[index])
                }
            } else {
                token.append(byte)
            }
            index += 1
        }
        throw NetrcFile.SyntaxError(line: lineNumber, message: "a quoted token is not closed")
    }
}
