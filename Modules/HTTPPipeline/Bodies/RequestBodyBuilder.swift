public import HTTPCore

/// Builds a request body from pieces of memory and whole files, streamed in order in constant memory
/// (ASIHTTPRequest's `appendPostData:` and `appendPostDataFromFile:` with `shouldStreamPostDataFromDisk`).
///
/// Files are never read into memory: the body reads them in 256 KiB pieces while it is sent. Each file's size is
/// taken when it is appended, so the body's length is exact (`Content-Length`); a file that changes size before
/// it is sent fails the request with ``ClientError/Code/storageFailed``. The body is replayable, for redirects,
/// authentication and retries.
///
/// ```swift
/// var builder = RequestBodyBuilder()
/// builder.append(Array("header\n".utf8))
/// try builder.appendFile(atPath: "/var/log/big.log")
/// request.body = builder.body
/// ```
public struct RequestBodyBuilder: Sendable {
    /// The pieces, adjacent memory pieces merged.
    var segments: [BodySegment] = []

    /// Creates an empty builder.
    public init() {}

    /// The body's length so far.
    public var length: Int64 {
        segments.reduce(0) { $0 + $1.length }
    }

    /// Whether nothing was appended (or only empty pieces).
    public var isEmpty: Bool { length == 0 }

    /// Appends bytes; an empty sequence is ignored, as in ASIHTTPRequest.
    /// - Parameter bytes: The bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        let array = Array(bytes)
        guard !array.isEmpty else { return }
        if case .bytes(let last)? = segments.last {
            segments[segments.count - 1] = .bytes(last + array)
        } else {
            segments.append(.bytes(array))
        }
    }

    /// Appends a string's UTF-8 bytes.
    /// - Parameter string: The text.
    public mutating func append(_ string: String) {
        append(string.utf8)
    }

    /// Appends a file's contents, to be read from disk while the body is sent.
    /// - Parameter path: The file.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` ("No file exists at ...") when the path
    ///   is missing or not a regular file.
    public mutating func appendFile(atPath path: String) throws {
        let length = try FileSegmentReader.size(ofFileAt: path)
        if length > 0 { segments.append(.file(path: path, length: length)) }
    }

    /// The body: bytes in memory when no file was appended, otherwise a replayable stream of exact length.
    public var body: RequestBody {
        if segments.isEmpty { return .bytes([]) }
        if segments.count == 1, case .bytes(let bytes) = segments[0] { return .bytes(bytes) }
        if segments.count == 1, case .file(let path, let length) = segments[0],
            let file = try? RequestBody.file(atPath: path), file.length == length
        {
            return file
        }
        let segments = self.segments
        return .stream(length: length, isReplayable: true) {
            let reader = FileSegmentReader(segments)
            return RequestBody.Chunks { try reader.next() }
        }
    }
}

/// One piece of a composed body.
enum BodySegment: Sendable {
    case bytes([UInt8])
    case file(path: String, length: Int64)

    var length: Int64 {
        switch self {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, let length): length
        }
    }
}
