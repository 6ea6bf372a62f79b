import FoundationEssentials
import HTTPCore

/// A web form to post (ASIHTTPRequest's `ASIFormDataRequest`): `application/x-www-form-urlencoded` by default,
/// `multipart/form-data` as soon as a file or data part is added.
///
/// ```swift
/// var form = FormData()
/// form.set("Ben", forKey: "first_name")
/// form.add("red", forKey: "colours")
/// form.add("blue", forKey: "colours")
/// try form.addFile(atPath: "/home/ben/photo.jpg", forKey: "photo")
/// let request = Request(url: URL(string: "https://example.com/upload")!, form: form)
/// ```
///
/// The body follows ASIHTTPRequest byte for byte: url-encoded pairs joined by `&` with everything but letters,
/// digits, `-`, `.` and `_` percent-escaped (a space is `%20`); multipart parts in the order value parts, then
/// file parts, with the boundary `0xKhTmLbOuNdArY-<UUID>`. Files are streamed from disk while the body is sent,
/// never read whole into memory, and the body's length is exact.
public struct FormData: Sendable {
    /// How the form is encoded (`postFormat`).
    public enum Format: Sendable, Hashable {
        /// `application/x-www-form-urlencoded` (`ASIURLEncodedPostFormat`), the default. Files and data parts
        /// switch the form to ``multipart``.
        case urlEncoded
        /// `multipart/form-data` (`ASIMultipartFormDataPostFormat`).
        case multipart
    }

    /// A file or data part.
    struct FilePart: Sendable {
        var key: String
        var fileName: String
        var contentType: String
        var content: BodySegment
    }

    /// The requested format; ``effectiveFormat`` is what is sent.
    public var format: Format
    /// The multipart boundary, unique per form.
    public let boundary: String
    private(set) var values: [(key: String, value: String)] = []
    private(set) var files: [FilePart] = []

    /// Creates an empty form.
    /// - Parameter format: The encoding; url-encoded by default.
    public init(format: Format = .urlEncoded) {
        self.format = format
        self.boundary = "0xKhTmLbOuNdArY-" + UUID().uuidString
    }

    /// The format sent: ``Format/multipart`` when the form has files or data parts, else ``format``.
    public var effectiveFormat: Format { files.isEmpty ? format : .multipart }

    /// Whether the form has no values and no parts (it then sends no body).
    public var isEmpty: Bool { values.isEmpty && files.isEmpty }

    /// Adds a value; repeated keys are sent in order (`addPostValue:forKey:`).
    /// - Parameters:
    ///   - value: The value, sent as its `description`.
    ///   - key: The field name.
    public mutating func add(_ value: some CustomStringConvertible, forKey key: String) {
        values.append((key, value.description))
    }

    /// Replaces every value for a key with this one (`setPostValue:forKey:`).
    /// - Parameters:
    ///   - value: The value, sent as its `description`.
    ///   - key: The field name.
    public mutating func set(_ value: some CustomStringConvertible, forKey key: String) {
        values.removeAll { $0.key == key }
        add(value, forKey: key)
    }

    /// Adds a file part, streamed from disk (`addFile:withFileName:andContentType:forKey:`).
    /// - Parameters:
    ///   - path: The file to send.
    ///   - fileName: The name sent; the path's last component when `nil`.
    ///   - contentType: The part's type; guessed from the extension when `nil` (`/etc/mime.types`, else
    ///     `application/octet-stream`).
    ///   - key: The field name.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` ("No file exists at ...") when the path is
    ///   missing or a directory.
    public mutating func addFile(
        atPath path: String,
        fileName: String? = nil,
        contentType: String? = nil,
        forKey key: String
    ) throws {
        let length = try FileSegmentReader.size(ofFileAt: path)
        let name = fileName ?? path.split(separator: "/").last.map(String.init) ?? path
        files.append(
            FilePart(
                key: key, fileName: name, contentType: contentType ?? Self.mimeType(forPath: path),
                content: .file(path: path, length: length)))
    }

    /// Replaces every file or data part for a key with this file (`setFile:withFileName:andContentType:forKey:`).
    /// - Parameters:
    ///   - path: The file to send.
    ///   - fileName: The name sent; the path's last component when `nil`.
    ///   - contentType: The part's type; guessed from the extension when `nil`.
    ///   - key: The field name.
    /// - Throws: ``ClientError`` with ``ClientError/Code/storageFailed`` when the path is missing or a directory.
    public mutating func setFile(
        atPath path: String,
        fileName: String? = nil,
        contentType: String? = nil,
        forKey key: String
    ) throws {
        var copy = self
        copy.files.removeAll { $0.key == key }
        try copy.addFile(atPath: path, fileName: fileName, contentType: contentType, forKey: key)
        self = copy
    }

    /// Adds a data part from memory (`addData:withFileName:andContentType:forKey:`).
    /// - Parameters:
    ///   - data: The bytes.
    ///   - fileName: The name sent; `file` by default.
    ///   - contentType: The part's type; `application/octet-stream` by default.
    ///   - key: The field name.
    public mutating func addData(
        _ data: some Sequence<UInt8>,
        fileName: String = "file",
        contentType: String = "application/octet-stream",
        forKey key: String
    ) {
        files.append(FilePart(key: key, fileName: fileName, contentType: contentType, content: .bytes(Array(data))))
    }

    /// Replaces every file or data part for a key with this data (`setData:withFileName:andContentType:forKey:`).
    /// - Parameters:
    ///   - data: The bytes.
    ///   - fileName: The name sent; `file` by default.
    ///   - contentType: The part's type; `application/octet-stream` by default.
    ///   - key: The field name.
    public mutating func setData(
        _ data: some Sequence<UInt8>,
        fileName: String = "file",
        contentType: String = "application/octet-stream",
        forKey key: String
    ) {
        files.removeAll { $0.key == key }
        addData(data, fileName: fileName, contentType: contentType, forKey: key)
    }

    /// The media type for a file's extension (`mimeTypeForFileAtPath:`): from `/etc/mime.types`, a built-in table
    /// when that is missing, else `application/octet-stream`.
    /// - Parameter path: The file's path or name.
    /// - Returns: The media type.
    public static func mimeType(forPath path: String) -> String {
        MIMETypes.type(forPath: path)
    }
}
