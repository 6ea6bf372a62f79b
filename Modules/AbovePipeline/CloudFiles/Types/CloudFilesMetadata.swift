public import HTTPCore

/// Reads and writes Swift's metadata fields: `X-Account-Meta-*`, `X-Container-Meta-*`, `X-Object-Meta-*`.
public enum CloudFilesMetadata {
    /// Whose metadata: the prefix of its fields.
    public enum Level: String, Sendable {
        /// `X-Account-Meta-`.
        case account = "X-Account-Meta-"
        /// `X-Container-Meta-`.
        case container = "X-Container-Meta-"
        /// `X-Object-Meta-`.
        case object = "X-Object-Meta-"
    }

    /// The metadata in a response's fields, keys in lower case without the prefix.
    /// - Parameters:
    ///   - fields: The response's fields.
    ///   - level: Whose metadata.
    /// - Returns: The metadata.
    public static func read(_ fields: HTTPFields, level: Level) -> [String: String] {
        let prefix = level.rawValue.lowercased()
        var out = [String: String]()
        for field in fields where field.name.canonicalName.hasPrefix(prefix) {
            out[String(field.name.canonicalName.dropFirst(prefix.count))] = field.value
        }
        return out
    }

    /// Adds metadata fields to `fields`; an empty value removes the key on a `POST`.
    /// - Parameters:
    ///   - metadata: Keys and values (keys: letters, digits, `-` and `_`).
    ///   - fields: The request's fields.
    ///   - level: Whose metadata.
    ///   - limits: The server's limits, checked before sending.
    /// - Throws: ``CloudFilesError`` `.invalidInput` for a key that is not a field name or metadata over the limits.
    static func write(
        _ metadata: [String: String], into fields: inout HTTPFields, level: Level, limits: CloudFilesInfo?
    ) throws {
        var total = 0
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard let name = HTTPField.Name(level.rawValue + key) else {
                throw CloudFilesError(code: .invalidInput, message: "metadata key \"\(key)\" is not a header name")
            }
            if let limits {
                if let max = limits.maxMetadataNameLength, key.utf8.count > max {
                    throw CloudFilesError(code: .invalidInput, message: "metadata key longer than \(max) bytes: \(key)")
                }
                if let max = limits.maxMetadataValueLength, value.utf8.count > max {
                    throw CloudFilesError(code: .invalidInput, message: "metadata value of \(key) over \(max) bytes")
                }
            }
            total += key.utf8.count + value.utf8.count
            fields[name] = value
        }
        if let max = limits?.maxMetadataCount, metadata.count > max {
            throw CloudFilesError(code: .invalidInput, message: "\(metadata.count) metadata items, over \(max)")
        }
        if let max = limits?.maxMetadataOverallSize, total > max {
            throw CloudFilesError(code: .invalidInput, message: "metadata of \(total) bytes, over \(max)")
        }
    }
}
