/// A container in an account listing.
public struct CloudFilesContainer: Sendable, Hashable, Decodable {
    /// The name.
    public var name: String
    /// Objects in it.
    public var count: Int
    /// Bytes in it.
    public var bytes: Int64
    /// When it last changed (ISO 8601), when the server says.
    public var lastModified: String?

    enum CodingKeys: String, CodingKey {
        case name, count, bytes
        case lastModified = "last_modified"
    }
}

/// An entry of a container listing: an object, or with a delimiter a pseudo-directory (`subdir`).
public struct CloudFilesObject: Sendable, Hashable, Decodable {
    /// The object's name, or the pseudo-directory's (ending with the delimiter).
    public var name: String
    /// Whether it is a pseudo-directory (only with a delimiter); then the other fields are empty.
    public var isDirectory: Bool
    /// The ETag (MD5 of the content for a plain object).
    public var hash: String
    /// The size.
    public var bytes: Int64
    /// The content type.
    public var contentType: String
    /// When it last changed (ISO 8601).
    public var lastModified: String

    enum CodingKeys: String, CodingKey {
        case name, hash, bytes, subdir
        case contentType = "content_type"
        case lastModified = "last_modified"
    }

    /// Reads an entry of a listing's JSON.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the entry has neither `name` nor `subdir`.
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        if let subdir = try values.decodeIfPresent(String.self, forKey: .subdir) {
            (name, isDirectory, hash, bytes, contentType, lastModified) = (subdir, true, "", 0, "", "")
            return
        }
        name = try values.decode(String.self, forKey: .name)
        isDirectory = false
        hash = try values.decodeIfPresent(String.self, forKey: .hash) ?? ""
        bytes = try values.decodeIfPresent(Int64.self, forKey: .bytes) ?? 0
        contentType = try values.decodeIfPresent(String.self, forKey: .contentType) ?? ""
        lastModified = try values.decodeIfPresent(String.self, forKey: .lastModified) ?? ""
    }
}
