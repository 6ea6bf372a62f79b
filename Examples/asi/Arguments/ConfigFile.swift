/// A curl config file (`-K/--config FILE`), read line by line with curl's rules.
///
/// One option a line, with or without its dashes: `--silent`, `silent`, `-o out.txt`, `output = out.txt`,
/// `output: out.txt`, `url "http://example.com/a b"`. A name written without dashes may be separated from its
/// parameter by `=`, `:` or white space; a name written with dashes only by white space. A parameter that holds
/// white space or starts with `=` or `:` is put in double quotes, where `\"`, `\\`, `\t`, `\n`, `\r` and `\v`
/// are escapes and a backslash before any other character is dropped. A line whose first non-blank character is
/// `#` (or `/` or `*`, as curl reads them) is a comment.
enum ConfigFile {
    /// One option read from a line.
    struct Line: Sendable, Equatable {
        /// The option as written, with its dashes when it had them (`--url`, `-o`) and without when not (`url`).
        var option: String
        /// Its parameter, or `nil` when the line has none (an empty one counts as none, as in curl).
        var parameter: String?
        /// The line's number, from 1.
        var number: Int
    }

    /// The options of a config file's text.
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - warn: Called with a line number and a message for a line that is read but looks wrong (an unquoted
    ///     parameter followed by more text, whose rest is ignored, as curl does).
    /// - Returns: The options in order.
    static func parse(_ text: String, warn: (Int, String) -> Void = { _, _ in }) -> [Line] {
        var lines: [Line] = []
        var number = 0
        for raw in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            if let line = parseLine(Array(raw), number: number, warn: warn) { lines.append(line) }
        }
        return lines
    }

    private static func parseLine(_ bytes: [UInt8], number: Int, warn: (Int, String) -> Void) -> Line? {
        var index = bytes.startIndex
        func skip(while test: (UInt8) -> Bool) { while index < bytes.endIndex && test(bytes[index]) { index += 1 } }
        skip(while: isSpace)
        guard index < bytes.endIndex, !"#/*".utf8.contains(bytes[index]) else { return nil }
        let dashed = bytes[index] == UInt8(ascii: "-")
        let isSeparator = { (byte: UInt8) in !dashed && (byte == UInt8(ascii: "=") || byte == UInt8(ascii: ":")) }
        let optionStart = index
        skip { !isSpace($0) && !isSeparator($0) }
        let option = String(decoding: bytes[optionStart..<index], as: UTF8.self)
        skip { isSpace($0) || isSeparator($0) }
        var parameter: [UInt8] = []
        if index < bytes.endIndex && bytes[index] == UInt8(ascii: "\"") {
            index += 1
            while index < bytes.endIndex && bytes[index] != UInt8(ascii: "\"") {
                var byte = bytes[index]
                if byte == UInt8(ascii: "\\") && index + 1 < bytes.endIndex {
                    index += 1
                    byte = unescaped(bytes[index])
                }
                parameter.append(byte)
                index += 1
            }
        } else {
            let start = index
            skip { !isSpace($0) }
            parameter = Array(bytes[start..<index])
            skip(while: isSpace)
            if index < bytes.endIndex && bytes[index] != UInt8(ascii: "#") {
                warn(number, "'\(option)' uses unquoted white space; the rest of the line is ignored")
            }
        }
        let text = String(decoding: parameter, as: UTF8.self)
        return Line(option: option, parameter: text.isEmpty ? nil : text, number: number)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    private static func unescaped(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "v"): 0x0B
        default: byte
        }
    }
}
