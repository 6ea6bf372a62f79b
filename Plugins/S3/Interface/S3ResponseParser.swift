public import HTTPCore

/// Reads S3's XML answers with libxml2: errors, list pages, bucket lists and multipart responses.
public enum S3ResponseParser {
    /// The typed error of a failed response: its `<Error>` document when there is one, otherwise a code from the
    /// status (``S3Error/Code/notFound``, ``S3Error/Code/forbidden``, ``S3Error/Code/unknown``).
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - fields: The response's header fields (for `x-amz-request-id`).
    ///   - body: The response body, possibly empty.
    /// - Returns: The error.
    public static func error(status: Int, fields: HTTPFields = [:], body: [UInt8]) -> S3Error {
        let requestID = fields[HTTPField.Name("x-amz-request-id")!]
        if let tree = try? XMLTree.parse(body), let error = error(in: tree, status: status) {
            return S3Error(
                code: error.code, status: status, message: error.message,
                requestID: error.requestID ?? requestID, resource: error.resource)
        }
        let code: S3Error.Code = status == 404 ? .notFound : status == 403 ? .forbidden : .unknown
        return S3Error(code: code, status: status, requestID: requestID)
    }

    /// The `<Error>` document of a body S3 sent with 200 (`CompleteMultipartUpload` and `CopyObject` may), or `nil`.
    static func error(in tree: XMLTree, status: Int) -> S3Error? {
        guard tree.name == "Error", let code = tree.text("Code") else { return nil }
        return S3Error(
            code: S3Error.Code(rawValue: code), status: status, message: tree.text("Message") ?? "",
            requestID: tree.text("RequestId") ?? tree.text("RequestID"),
            resource: tree.text("Key") ?? tree.text("BucketName") ?? tree.text("Resource"))
    }

    /// Parses a `ListBucketResult` (`ListObjectsV2`).
    /// - Parameter body: The response body.
    /// - Returns: The page.
    /// - Throws: ``S3Error`` for an `<Error>` document; `ClientError` (``HTTPCore/ClientError/Code/protocolViolation``)
    ///   for malformed XML.
    public static func listPage(_ body: [UInt8]) throws -> S3ListPage {
        let tree = try document(body, root: "ListBucketResult")
        let objects = tree.children("Contents").map { entry in
            S3ObjectSummary(
                key: entry.text("Key") ?? "", size: Int64(entry.text("Size") ?? "") ?? 0,
                eTag: entry.text("ETag") ?? "", lastModified: entry.text("LastModified") ?? "",
                storageClass: entry.text("StorageClass").map { S3StorageClass(rawValue: $0) })
        }
        let prefixes = tree.children("CommonPrefixes").compactMap { $0.text("Prefix") }
        return S3ListPage(
            objects: objects, commonPrefixes: prefixes, isTruncated: tree.text("IsTruncated") == "true",
            nextContinuationToken: tree.text("NextContinuationToken"),
            keyCount: tree.text("KeyCount").flatMap { Int($0) })
    }

    /// Parses a `ListAllMyBucketsResult`.
    /// - Parameter body: The response body.
    /// - Returns: The buckets.
    /// - Throws: ``S3Error`` or a malformed-XML `ClientError`.
    public static func buckets(_ body: [UInt8]) throws -> [S3Bucket] {
        let tree = try document(body, root: "ListAllMyBucketsResult")
        return (tree.child("Buckets")?.children("Bucket") ?? []).map {
            S3Bucket(name: $0.text("Name") ?? "", creationDate: $0.text("CreationDate") ?? "")
        }
    }

    /// Parses an `InitiateMultipartUploadResult`.
    /// - Parameter body: The response body.
    /// - Returns: The upload ID.
    /// - Throws: ``S3Error`` or a malformed-XML `ClientError`.
    public static func uploadID(_ body: [UInt8]) throws -> String {
        let tree = try document(body, root: "InitiateMultipartUploadResult")
        guard let id = tree.text("UploadId"), !id.isEmpty else {
            throw S3Error(code: .unknown, status: 200, message: "InitiateMultipartUploadResult has no UploadId")
        }
        return id
    }

    /// Parses a `CompleteMultipartUploadResult` or `CopyObjectResult`, which S3 may send with 200 and an `<Error>`.
    /// - Parameters:
    ///   - body: The response body.
    ///   - root: The expected root element; its `Result` suffix may also be `Response`, as moto writes it.
    /// - Returns: The result's ETag.
    /// - Throws: ``S3Error`` when the body is an `<Error>` or another document; a malformed-XML `ClientError`.
    public static func eTag(_ body: [UInt8], root: String) throws -> String {
        let alternative = root.hasSuffix("Result") ? String(root.dropLast(6)) + "Response" : root
        return try document(body, roots: [root, alternative]).text("ETag") ?? ""
    }

    private static func document(_ body: [UInt8], root: String) throws -> XMLTree {
        try document(body, roots: [root])
    }

    private static func document(_ body: [UInt8], roots: [String]) throws -> XMLTree {
        let tree = try XMLTree.parse(body)
        if let error = error(in: tree, status: 200) { throw error }
        guard roots.contains(tree.name) else {
            throw S3Error(code: .unknown, status: 200, message: "Expected <\(roots[0])>, got <\(tree.name)>")
        }
        return tree
    }
}
