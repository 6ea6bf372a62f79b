import HTTPCore

/// The resume rules (`allowResumeForFileDownloads`): when a partial temporary file exists, ask for the rest.
enum ResumeRange {
    /// The byte to resume from: the size of the request's temporary download file, when resuming is allowed, the
    /// file exists and is not empty, and the caller did not set their own `Range`.
    static func start(for request: Request) -> Int64? {
        guard let download = request.options.download, download.allowsResume,
            let temporaryPath = download.temporaryPath, request.headerFields[.range] == nil,
            let size = DownloadFile.size(ofFileAt: temporaryPath), size > 0
        else { return nil }
        return size
    }

    /// Adds `Range: bytes=<start>-` to a hop when it resumes a download; measured again for every hop, so a
    /// retry after a timeout mid-download asks for what is still missing.
    static func apply(to request: inout Request) {
        if let start = start(for: request) { request.headerFields[.range] = "bytes=\(start)-" }
    }

    /// The parts of `Content-Range: bytes <first>-<last>/<total>` or `bytes */<total>`; `nil` when malformed.
    static func parse(contentRange value: String) -> (first: Int64?, total: Int64?)? {
        let trimmed = value.trimmingOWS()
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6).trimmingOWS()
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        let total = halves[1] == "*" ? nil : Int64(halves[1])
        if halves[0] == "*" { return (nil, total) }
        guard let dash = halves[0].firstIndex(of: "-"), let first = Int64(halves[0][..<dash]) else { return nil }
        return (first, total)
    }
}
