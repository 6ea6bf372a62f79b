extension S3Error {
    /// An S3 error code: the text of `<Code>`. An open set; the common ones are static members.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code as S3 writes it, for example `NoSuchKey`.
        public var rawValue: String

        /// Wraps a code.
        /// - Parameter rawValue: The code as S3 writes it.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code as S3 writes it.
        public var description: String { rawValue }

        /// The key does not exist.
        public static let noSuchKey = Code(rawValue: "NoSuchKey")
        /// The bucket does not exist.
        public static let noSuchBucket = Code(rawValue: "NoSuchBucket")
        /// The multipart upload does not exist (completed or aborted).
        public static let noSuchUpload = Code(rawValue: "NoSuchUpload")
        /// Access was denied (including a wrong key on some servers).
        public static let accessDenied = Code(rawValue: "AccessDenied")
        /// The signature does not match: a wrong secret, or a request changed after signing.
        public static let signatureDoesNotMatch = Code(rawValue: "SignatureDoesNotMatch")
        /// The access key ID is unknown.
        public static let invalidAccessKeyID = Code(rawValue: "InvalidAccessKeyId")
        /// The bucket name is taken by another account.
        public static let bucketAlreadyExists = Code(rawValue: "BucketAlreadyExists")
        /// The bucket exists and is yours.
        public static let bucketAlreadyOwnedByYou = Code(rawValue: "BucketAlreadyOwnedByYou")
        /// The bucket still holds objects.
        public static let bucketNotEmpty = Code(rawValue: "BucketNotEmpty")
        /// A part named in a complete-multipart request is missing or its ETag differs.
        public static let invalidPart = Code(rawValue: "InvalidPart")
        /// A part other than the last is smaller than 5 MiB.
        public static let entityTooSmall = Code(rawValue: "EntityTooSmall")
        /// The requested range cannot be satisfied.
        public static let invalidRange = Code(rawValue: "InvalidRange")
        /// The request's time is too far from the server's.
        public static let requestTimeTooSkewed = Code(rawValue: "RequestTimeTooSkewed")
        /// The server had an internal error; the request may be retried.
        public static let internalError = Code(rawValue: "InternalError")
        /// A response with no `<Error>` document and a 404 status (a `HEAD`, for example).
        public static let notFound = Code(rawValue: "NotFound")
        /// A response with no `<Error>` document and a 403 status.
        public static let forbidden = Code(rawValue: "Forbidden")
        /// A response with no `<Error>` document and another failing status.
        public static let unknown = Code(rawValue: "Unknown")
    }
}
