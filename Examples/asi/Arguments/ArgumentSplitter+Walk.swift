extension ArgumentSplitter {
    /// The state of one walk over a command line and the config files it names.
    struct Walk {
        let table: ArgumentTable
        let readFile: (String) throws(TransferFailure) -> String
        var groups = [Group()]
        var warnings: [String] = []
        var depth = 0

        init(table: ArgumentTable, readFile: @escaping (String) throws(TransferFailure) -> String) {
            self.table = table
            self.readFile = readFile
        }

        /// Walks command-line arguments.
        /// - Returns: `false` at the first argument the table does not explain.
        mutating func commandLine(_ tokens: [String]) throws(TransferFailure) -> Bool {
            var index = 0
            func nextValue() -> String? {
                guard index < tokens.count, ArgumentSplitter.isValue(tokens[index]) else { return nil }
                defer { index += 1 }
                return tokens[index]
            }
            while index < tokens.count {
                let token = tokens[index]
                index += 1
                if ArgumentSplitter.isValue(token) {
                    groups[groups.count - 1].urls.append(token)
                } else if token == "--" {
                    groups[groups.count - 1].urls.append(contentsOf: tokens[index...])
                    return true
                } else if token == "--next" {
                    groups.append(Group())
                } else if token.hasPrefix("---") {
                    return false
                } else if token.hasPrefix("--") {
                    let body = token.dropFirst(2)
                    let name = String(body.prefix { $0 != "=" })
                    let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                    switch table.long[name] {
                    case nil: return false
                    case .flag?:
                        guard attached == nil else { return false }
                        keep(token)
                    case .option?:
                        guard let value = attached ?? nextValue() else { return false }
                        try apply(long: name, value)
                    }
                } else {
                    let letters = token.dropFirst()
                    guard !letters.contains("="), !table.singleDashLong.contains(String(letters)) else { return false }
                    var flags = ""
                    var options: [Character] = []
                    for letter in letters {
                        switch table.short[letter] {
                        case nil: return false
                        case .flag?: flags.append(letter)
                        case .option?: options.append(letter)
                        }
                    }
                    if !flags.isEmpty { keep("-" + flags) }
                    for letter in options {
                        guard let value = nextValue() else { return false }
                        try apply(short: letter, value)
                    }
                }
            }
            return true
        }

        /// Reads a config file and walks its lines as if they stood on the command line here. Unknown names and
        /// options without their parameter are skipped with a warning, as curl does.
        mutating func include(_ path: String) throws(TransferFailure) {
            guard depth < ArgumentSplitter.maximumConfigDepth else {
                throw TransferFailure(26, "Config files include each other too deeply at '\(path)'.")
            }
            let text = try readFile(path)
            var cut: [(Int, String)] = []
            let lines = ConfigFile.parse(text) { cut.append(($0, $1)) }
            warnings += cut.map { "\(path):\($0.0): warning: \($0.1)" }
            depth += 1
            defer { depth -= 1 }
            for line in lines {
                let warn = { (message: String) in "\(path):\(line.number): warning: '\(line.option)' \(message)" }
                if line.option.hasPrefix("-") && !line.option.hasPrefix("--") {
                    let letters = Array(line.option.dropFirst())
                    guard !letters.isEmpty, letters.allSatisfy({ table.short[$0] != nil }) else {
                        warnings.append(warn("is unknown"))
                        continue
                    }
                    let options = letters.filter { table.short[$0] == .option }
                    let flags = String(letters.filter { table.short[$0] == .flag })
                    if options.count > 1 || (options.count == 1 && line.parameter == nil) {
                        warnings.append(warn("requires parameter"))
                        continue
                    }
                    if !flags.isEmpty { keep("-" + flags) }
                    if let letter = options.first, let parameter = line.parameter {
                        try apply(short: letter, parameter)
                    }
                    continue
                }
                let name = line.option.hasPrefix("--") ? String(line.option.dropFirst(2)) : line.option
                if name == "next" {
                    groups.append(Group())
                    continue
                }
                switch table.long[name] {
                case nil: warnings.append(warn("is unknown"))
                case .flag?: keep("--" + name)  // a parameter after a flag is ignored, as in curl
                case .option?:
                    guard let parameter = line.parameter else {
                        warnings.append(warn("requires parameter"))
                        continue
                    }
                    try apply(long: name, parameter)
                }
            }
        }

        private mutating func apply(long name: String, _ value: String) throws(TransferFailure) {
            switch name {
            case "url": groups[groups.count - 1].urls.append(value)
            case "config": try include(value)
            default: keep("--\(name)=\(value)")  // attached, so a value that starts with "-" stays a value
            }
        }

        private mutating func apply(short letter: Character, _ value: String) throws(TransferFailure) {
            if let name = table.longNameOfShort[letter] {
                try apply(long: name, value)
            } else {
                keep("-\(letter)")
                keep(value)
            }
        }

        private mutating func keep(_ argument: String) {
            groups[groups.count - 1].parserArguments.append(argument)
        }
    }
}
