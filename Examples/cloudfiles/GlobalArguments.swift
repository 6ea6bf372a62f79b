/// Moves `swift`'s global options written before the subcommand (`cloudfiles -A URL -U USER stat`) after it, where
/// the subcommand's ``ConnectionOptions`` read them.
enum GlobalArguments {
    /// The global options that take a value.
    static let valued: Set<String> = ["-A", "--auth", "-U", "--user", "-K", "--key", "-V", "--auth-version"]

    /// The arguments with leading global options moved after the subcommand's name.
    /// - Parameter arguments: The command line after the program's name.
    /// - Returns: The reordered command line.
    static func reordered(_ arguments: [String]) -> [String] {
        var globals = [String]()
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if valued.contains(argument), index + 1 < arguments.count {
                globals += [argument, arguments[index + 1]]
                index += 2
            } else if let equals = argument.firstIndex(of: "="), valued.contains(String(argument[..<equals])) {
                globals.append(argument)
                index += 1
            } else {
                break
            }
        }
        guard index < arguments.count else { return arguments }
        return [arguments[index]] + globals + arguments[(index + 1)...]
    }
}
