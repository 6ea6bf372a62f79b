public import HTTPCore

extension S3Requests {
    /// Start a multipart upload (`POST ?uploads`); read the ID with ``S3ResponseParser/uploadID(_:)``.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - options: Content type, metadata, ACL, storage class of the object to be.
    /// - Returns: The request.
    public func createMultipartUpload(bucket: String, key: String, options: S3ObjectOptions = .init()) -> Request {
        var request = make(url: endpoint.url(bucket: bucket, key: key, query: [("uploads", nil)]), method: .post)
        apply(options, to: &request.headerFields)
        return request
    }

    /// Upload one part (`PUT ?partNumber=N&uploadId=…`); the answer's `ETag` names it in the completion.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - uploadID: The upload.
    ///   - partNumber: The part number, 1 to 10,000.
    ///   - body: The part's bytes (every part but the last at least 5 MiB).
    /// - Returns: The request.
    public func uploadPart(bucket: String, key: String, uploadID: String, partNumber: Int, body: RequestBody) -> Request
    {
        make(
            url: endpoint.url(
                bucket: bucket, key: key, query: [("partNumber", String(partNumber)), ("uploadId", uploadID)]),
            method: .put, body: body)
    }

    /// Upload one part streamed from a byte range of a file, in constant memory.
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - uploadID: The upload.
    ///   - partNumber: The part number, 1 to 10,000.
    ///   - path: The file.
    ///   - offset: Where the part starts in the file.
    ///   - length: The part's size.
    /// - Returns: The request; its body is replayable, so a retry sends the part again from disk.
    public func uploadPart(
        bucket: String, key: String, uploadID: String, partNumber: Int, fileAtPath path: String, offset: Int64,
        length: Int64
    ) -> Request {
        uploadPart(
            bucket: bucket, key: key, uploadID: uploadID, partNumber: partNumber,
            body: RequestBody.fileRange(path: path, offset: offset, length: length))
    }

    /// Complete a multipart upload (`POST ?uploadId=…` with the parts' list); read with
    /// ``S3ResponseParser/eTag(_:root:)`` and root `CompleteMultipartUploadResult` (S3 may answer 200 with an error).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - uploadID: The upload.
    ///   - parts: Every part, in part-number order.
    /// - Returns: The request.
    public func completeMultipartUpload(
        bucket: String, key: String, uploadID: String, parts: [S3CompletedPart]
    ) -> Request {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for part in parts.sorted(by: { $0.partNumber < $1.partNumber }) {
            xml +=
                "<Part><PartNumber>\(part.partNumber)</PartNumber><ETag>" + XMLText.escape(part.eTag)
                + "</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        var request = make(
            url: endpoint.url(bucket: bucket, key: key, query: [("uploadId", uploadID)]), method: .post,
            body: .string(xml))
        request.headerFields[.contentType] = "application/xml"
        return request
    }

    /// Abort a multipart upload, so S3 drops its parts (`DELETE ?uploadId=…`).
    /// - Parameters:
    ///   - bucket: The bucket.
    ///   - key: The key.
    ///   - uploadID: The upload.
    /// - Returns: The request.
    public func abortMultipartUpload(bucket: String, key: String, uploadID: String) -> Request {
        make(url: endpoint.url(bucket: bucket, key: key, query: [("uploadId", uploadID)]), method: .delete)
    }
}

/// Escapes text for an XML element: the plug-in writes S3's two small request documents, and parses none by hand.
enum XMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
