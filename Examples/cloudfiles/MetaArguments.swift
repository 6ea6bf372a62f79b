/// `-m name:value` and `-H name:value` as swiftclient splits them: at the first `:`, the value trimmed.
enum MetaArguments {
    /// The pairs.
    /// - Parameter arguments: The `name:value` arguments.
    /// - Returns: Names and values.
    /// - Throws: ``CommandFailure`` for an argument without `:`.
    static func pairs(_ arguments: [String]) throws -> [String: String] {
        var result = [String: String]()
        for argument in arguments {
            guard let colon = argument.firstIndex(of: ":") else {
                throw CommandFailure("Metadata parameter \(argument) must contain a ':'")
            }
            let value = argument[argument.index(after: colon)...].drop { $0 == " " }
            result[String(argument[..<colon])] = String(value)
        }
        return result
    }
}
