import FoundationEssentials
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// `-T FILE -C OFFSET`: the part of the file from `OFFSET` on, with the `Content-Range` that says where it goes
/// (curl's resumed upload).
enum UploadResume {
    /// Sets the body of `request` to the file's bytes from `offset` on and adds
    /// `Content-Range: bytes OFFSET-LAST/SIZE`.
    /// - Parameters:
    ///   - path: The file to send.
    ///   - offset: The number of bytes the server already has.
    ///   - request: The request to change.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the file cannot be read or is
    ///   shorter than `offset`.
    static func apply(path: String, offset: Int64, to request: inout Request) throws {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ClientError(.storageFailed, message: "Cannot read the file to send: \(path)")
        }
        let size = Int64(info.st_size)
        guard offset <= size else {
            throw ClientError(.storageFailed, message: "-C \(offset) is past the end of \(path) (\(size) bytes)")
        }
        request.body = .stream(length: size - offset, isReplayable: true) {
            let cursor = Cursor(path: path, offset: offset, end: size)
            return RequestBody.Chunks { try cursor.next() }
        }
        if size > offset {
            request.headerFields[Self.contentRange] = "bytes \(offset)-\(size - 1)/\(size)"
        }
    }

    private static let contentRange = HTTPField.Name("Content-Range")!

    /// Reads the file's bytes from an offset to an end with `pread`, one chunk a call.
    private final class Cursor: @unchecked Sendable {
        // Used by one consumer at a time (RequestBody.Chunks's contract), so the position needs no lock.
        private let path: String
        private var position: Int64
        private let end: Int64
        private var descriptor: Int32 = -1

        init(path: String, offset: Int64, end: Int64) {
            self.path = path
            position = offset
            self.end = end
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        func next() throws -> [UInt8]? {
            guard position < end else { return nil }
            if descriptor < 0 {
                descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else {
                    throw ClientError(.storageFailed, message: "Cannot open the file to send: \(path)")
                }
            }
            let want = Int(min(65_536, end - position))
            let chunk = try [UInt8](unsafeUninitializedCapacity: want) { buffer, count in
                let read = pread(descriptor, buffer.baseAddress, want, off_t(position))
                guard read > 0 else {
                    count = 0
                    throw ClientError(.storageFailed, message: "The file to send got shorter: \(path)")
                }
                count = read
            }
            position += Int64(chunk.count)
            return chunk
        }
    }
}
