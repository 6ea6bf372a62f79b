/// How ``CloudFilesClient/uploadLargeObject(container:name:fromFile:options:configuration:progress:)`` cuts a file
/// into segments and joins them.
public struct LargeObjectConfiguration: Sendable {
    /// The kind of manifest that joins the segments.
    public enum Kind: Sendable, Hashable {
        /// A static large object: a JSON manifest listing each segment's path, ETag and size
        /// (`?multipart-manifest=put`); Swift checks every segment when the manifest is put.
        case staticManifest
        /// A dynamic large object: an empty object whose `X-Object-Manifest` names the segments' prefix.
        case dynamicManifest
    }

    /// The manifest's kind; static by default (python-swiftclient's `--use-slo`).
    public var kind: Kind
    /// The size of each segment but the last.
    public var segmentSize: Int64
    /// The container segments go to; `<container>_segments` (python-swiftclient's choice) when `nil`.
    public var segmentContainer: String?
    /// Segments sent at once through the `RequestQueue`; 4 by default.
    public var maxConcurrentSegments: Int
    /// Attempts a segment gets (a failed one is sent again from disk); 3 by default.
    public var attemptsPerSegment: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - kind: Static or dynamic.
    ///   - segmentSize: The segment size (at least 1 byte, and at least `/info`'s `slo.min_segment_size`).
    ///   - segmentContainer: The segments' container.
    ///   - maxConcurrentSegments: Segments at once.
    ///   - attemptsPerSegment: Attempts a segment.
    public init(
        kind: Kind = .staticManifest, segmentSize: Int64, segmentContainer: String? = nil,
        maxConcurrentSegments: Int = 4, attemptsPerSegment: Int = 3
    ) {
        precondition(segmentSize >= 1, "A segment holds at least one byte")
        precondition(maxConcurrentSegments >= 1 && attemptsPerSegment >= 1, "At least one segment and one attempt")
        self.kind = kind
        self.segmentSize = segmentSize
        self.segmentContainer = segmentContainer
        self.maxConcurrentSegments = maxConcurrentSegments
        self.attemptsPerSegment = attemptsPerSegment
    }
}

/// What a large-object upload did.
public struct LargeObjectUpload: Sendable, Hashable {
    /// The manifest's ETag as Swift answered it.
    public var eTag: String
    /// The segments' container.
    public var segmentContainer: String
    /// The segments' common name prefix (`<name>/slo/<mtime>/<size>/<segment size>/`).
    public var segmentPrefix: String
    /// Segments of the object.
    public var segmentCount: Int
    /// Segments sent by this upload; the others were already in the segment container with the same MD5 and size.
    public var segmentsSent: Int
}
