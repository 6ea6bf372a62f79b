public import HTTPCore

/// An account's `HEAD`: its counts and metadata.
public struct CloudFilesAccountInfo: Sendable {
    /// `X-Account-Container-Count`.
    public var containerCount: Int
    /// `X-Account-Object-Count`.
    public var objectCount: Int
    /// `X-Account-Bytes-Used`.
    public var bytesUsed: Int64
    /// `X-Account-Meta-*`, keys in lower case.
    public var metadata: [String: String]
    /// Every field of the answer.
    public var headerFields: HTTPFields

    /// Reads an account's head.
    /// - Parameter fields: The answer's fields.
    public init(fields: HTTPFields) {
        containerCount = fields.int("X-Account-Container-Count")
        objectCount = fields.int("X-Account-Object-Count")
        bytesUsed = Int64(fields.int("X-Account-Bytes-Used"))
        metadata = CloudFilesMetadata.read(fields, level: .account)
        headerFields = fields
    }
}

/// A container's `HEAD`: its counts and metadata.
public struct CloudFilesContainerInfo: Sendable {
    /// `X-Container-Object-Count`.
    public var objectCount: Int
    /// `X-Container-Bytes-Used`.
    public var bytesUsed: Int64
    /// `X-Container-Meta-*`, keys in lower case.
    public var metadata: [String: String]
    /// Every field of the answer (`X-Container-Read`, `X-Storage-Policy`, …).
    public var headerFields: HTTPFields

    /// Reads a container's head.
    /// - Parameter fields: The answer's fields.
    public init(fields: HTTPFields) {
        objectCount = fields.int("X-Container-Object-Count")
        bytesUsed = Int64(fields.int("X-Container-Bytes-Used"))
        metadata = CloudFilesMetadata.read(fields, level: .container)
        headerFields = fields
    }
}

/// An object's `HEAD` (or a `GET`'s head): size, ETag, type, metadata and large-object markers.
public struct CloudFilesObjectInfo: Sendable {
    /// `Content-Length`.
    public var size: Int64
    /// `ETag` without quotes (for a large object, Swift's ETag of the manifest's segments).
    public var eTag: String
    /// `Content-Type`.
    public var contentType: String?
    /// `Last-Modified`.
    public var lastModified: String?
    /// `X-Object-Meta-*`, keys in lower case.
    public var metadata: [String: String]
    /// Whether it is a static large object (`X-Static-Large-Object: True`).
    public var isStaticLargeObject: Bool
    /// A dynamic large object's `X-Object-Manifest` (`container/prefix`).
    public var objectManifest: String?
    /// `X-Delete-At`, seconds since 1970.
    public var deleteAt: Int64?
    /// Every field of the answer.
    public var headerFields: HTTPFields

    /// Reads an object's head.
    /// - Parameter fields: The answer's fields.
    public init(fields: HTTPFields) {
        size = Int64(fields[.contentLength] ?? "") ?? 0
        var tag = fields[HTTPField.Name("ETag")!] ?? ""
        if tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count >= 2 { tag = String(tag.dropFirst().dropLast()) }
        eTag = tag
        contentType = fields[.contentType]
        lastModified = fields[.lastModified]
        metadata = CloudFilesMetadata.read(fields, level: .object)
        isStaticLargeObject = fields[HTTPField.Name("X-Static-Large-Object")!]?.lowercased() == "true"
        objectManifest = fields[HTTPField.Name("X-Object-Manifest")!]
        deleteAt = fields[HTTPField.Name("X-Delete-At")!].flatMap { Int64($0) }
        headerFields = fields
    }
}

extension HTTPFields {
    func int(_ name: String) -> Int { self[HTTPField.Name(name)!].flatMap { Int($0) } ?? 0 }
}
