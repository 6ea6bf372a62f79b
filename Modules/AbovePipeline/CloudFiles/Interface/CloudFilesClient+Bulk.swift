import FoundationEssentials
public import HTTPCore
import HTTPPipeline

/// What a bulk delete or archive extraction answered.
public struct CloudFilesBulkResult: Sendable, Hashable {
    /// Objects (and containers) deleted, or files created by an extraction.
    public var succeeded: Int
    /// Paths that were not found (bulk delete only).
    public var notFound: Int
    /// Each path that failed, with its status (`404 Not Found`, `409 Conflict`, …).
    public var errors: [Failure]

    /// One path that failed.
    public struct Failure: Sendable, Hashable {
        /// The path.
        public var path: String
        /// The status text.
        public var status: String
    }
}

extension CloudFilesClient {
    /// Deletes many objects (or empty containers) in as few requests as `/info`'s `max_deletes_per_request` allows
    /// (`POST ?bulk-delete`).
    /// - Parameter paths: `container/object` or `container` paths, not percent-encoded.
    /// - Returns: The counts and the paths that failed, summed over the requests.
    /// - Throws: ``CloudFilesError`` (`.invalidInput` when the cluster has no bulk delete) or `ClientError`.
    public func bulkDelete(_ paths: [String]) async throws -> CloudFilesBulkResult {
        let limits = await knownLimits()
        if let limits, !limits.supportsBulkDelete {
            throw CloudFilesError(code: .invalidInput, message: "the cluster has no bulk delete")
        }
        let width = max(1, limits?.maxDeletesPerRequest ?? 10_000)
        var total = CloudFilesBulkResult(succeeded: 0, notFound: 0, errors: [])
        var start = 0
        while start < paths.count {
            let chunk = paths[start..<min(paths.count, start + width)]
            start += width
            var fields = HTTPFields()
            fields[.contentType] = "text/plain"
            fields[.accept] = "application/json"
            let body = chunk.map { "/" + PathEncoding.path($0) }.joined(separator: "\n")
            let request = try await request(.post, query: [("bulk-delete", nil)], headers: fields, body: .string(body))
            let result = try Self.bulkResult(try await perform(request).body)
            total.succeeded += result.succeeded
            total.notFound += result.notFound
            total.errors += result.errors
        }
        return total
    }

    /// Uploads an archive whose files become objects (`PUT ?extract-archive=`): `tar`, `tar.gz` or `tar.bz2`.
    /// - Parameters:
    ///   - body: The archive.
    ///   - format: `tar`, `tar.gz` or `tar.bz2`.
    ///   - container: The container its files go into; `nil` when the archive's top directories are containers.
    /// - Returns: Files created and paths that failed.
    /// - Throws: ``CloudFilesError`` or `ClientError`.
    public func extractArchive(
        _ body: RequestBody, format: String, into container: String? = nil
    ) async throws
        -> CloudFilesBulkResult
    {
        var fields = HTTPFields()
        fields[.accept] = "application/json"
        var request = try await request(
            .put, container: container, query: [("extract-archive", format)], headers: fields, body: body)
        if body.length == nil { request.headerFields[.transferEncoding] = "chunked" }
        return try Self.bulkResult(try await perform(request).body)
    }

    /// Reads the bulk middleware's JSON answer; a failing `Response Status` with no per-path errors is an error.
    static func bulkResult(_ body: [UInt8]) throws -> CloudFilesBulkResult {
        let document: BulkDocument
        do {
            document = try JSONDecoder().decode(BulkDocument.self, from: Data(body))
        } catch {
            throw CloudFilesError(code: .invalidResponse, message: "the bulk answer is not the JSON expected")
        }
        let errors = (document.errors ?? []).map {
            CloudFilesBulkResult.Failure(path: $0.first ?? "", status: $0.last ?? "")
        }
        let status = Int(document.status?.prefix(3) ?? "") ?? 200
        if status >= 300 && errors.isEmpty {
            throw CloudFilesError(
                code: .bulkOperationFailed, status: status,
                message: [document.status ?? "", document.body ?? ""].joined(separator: " ").trimmedLine)
        }
        return CloudFilesBulkResult(
            succeeded: document.deleted ?? document.created ?? 0, notFound: document.notFound ?? 0, errors: errors)
    }
}

/// The bulk middleware's JSON answer.
struct BulkDocument: Decodable {
    var deleted: Int?
    var notFound: Int?
    var created: Int?
    var status: String?
    var body: String?
    var errors: [[String]]?

    enum CodingKeys: String, CodingKey {
        case deleted = "Number Deleted"
        case notFound = "Number Not Found"
        case created = "Number Files Created"
        case status = "Response Status"
        case body = "Response Body"
        case errors = "Errors"
    }
}

extension String {
    var trimmedLine: String { self[...].trimmingCharacters() }
}
