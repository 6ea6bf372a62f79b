extension CloudFilesError {
    /// What went wrong. An open set: match the static members, and treat others as failures.
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String

        /// Wraps a name.
        /// - Parameter rawValue: The name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The code's name.
        public var description: String { rawValue }

        /// 401: the token or the credentials were refused (after one renewal of the token).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// 403: the account, container or object is not yours to use this way.
        public static let forbidden = Code(rawValue: "forbidden")
        /// 404: no such account, container or object.
        public static let notFound = Code(rawValue: "notFound")
        /// 409: for example a container that still holds objects.
        public static let conflict = Code(rawValue: "conflict")
        /// 400, 411, 413 or 422: Swift refused the request as sent (a checksum mismatch is 422).
        public static let badRequest = Code(rawValue: "badRequest")
        /// 412: a precondition failed (`If-Match`, or a listing `limit` above the server's).
        public static let preconditionFailed = Code(rawValue: "preconditionFailed")
        /// 416: the range cannot be satisfied.
        public static let rangeNotSatisfiable = Code(rawValue: "rangeNotSatisfiable")
        /// 429 or 498: too many requests.
        public static let rateLimited = Code(rawValue: "rateLimited")
        /// 5xx: the server failed; the request may be sent again.
        public static let serverError = Code(rawValue: "serverError")
        /// Another status outside 2xx.
        public static let unexpectedStatus = Code(rawValue: "unexpectedStatus")
        /// The identity service answered without a token or a storage endpoint (or the region or interface asked for
        /// is not in its catalog).
        public static let authenticationFailed = Code(rawValue: "authenticationFailed")
        /// The server's answer could not be read (a listing or `/info` that is not the JSON expected).
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// A local check refused the input before sending: a name, metadata or segment size outside the limits.
        public static let invalidInput = Code(rawValue: "invalidInput")
        /// A bulk delete or archive extraction finished with errors for some paths.
        public static let bulkOperationFailed = Code(rawValue: "bulkOperationFailed")
    }
}
