public import FoundationEssentials
public import HTTPCore

extension FormData {
    /// The `Content-Type` the form is sent with, or `nil` for an empty form.
    public var contentType: String? {
        guard !isEmpty else { return nil }
        switch effectiveFormat {
        case .urlEncoded: return "application/x-www-form-urlencoded; charset=utf-8"
        case .multipart: return "multipart/form-data; charset=utf-8; boundary=\(boundary)"
        }
    }

    /// The encoded body, or `nil` for an empty form. Files are streamed; the length is exact.
    public var body: RequestBody? {
        guard !isEmpty else { return nil }
        var builder = RequestBodyBuilder()
        switch effectiveFormat {
        case .urlEncoded:
            builder.append(
                values.map { Self.percentEncoded($0.key) + "=" + Self.percentEncoded($0.value) }
                    .joined(separator: "&"))
        case .multipart:
            let separator = "\r\n--\(boundary)\r\n"
            builder.append("--\(boundary)\r\n")
            var first = true
            for (key, value) in values {
                if !first { builder.append(separator) }
                first = false
                builder.append("Content-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)")
            }
            for part in files {
                if !first { builder.append(separator) }
                first = false
                builder.append(
                    "Content-Disposition: form-data; name=\"\(part.key)\"; filename=\"\(part.fileName)\""
                        + "\r\nContent-Type: \(part.contentType)\r\n\r\n")
                builder.segments.append(part.content)
            }
            builder.append("\r\n--\(boundary)--\r\n")
        }
        return builder.body
    }

    /// Percent-escapes a form key or value as ASIHTTPRequest's `encodeURL:` does: every byte of the UTF-8 form but
    /// ASCII letters, digits, `-`, `.` and `_` becomes `%XX`, so a space is `%20`, never `+`.
    /// - Parameter string: The text.
    /// - Returns: The escaped text.
    public static func percentEncoded(_ string: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Request {
    /// Creates a request that posts a form (an `ASIFormDataRequest`).
    /// - Parameters:
    ///   - url: The absolute URL.
    ///   - form: The form; its body and `Content-Type` are set.
    ///   - method: The method; `POST` by default (`PUT` keeps `PUT`).
    ///   - options: How the request is carried out.
    public init(
        url: URL, form: FormData, method: HTTPRequest.Method = .post, options: RequestOptions = RequestOptions()
    ) {
        self.init(url: url, method: method, options: options)
        setForm(form)
    }

    /// Sets the body and `Content-Type` from a form, replacing both (as ASIHTTPRequest does); an empty form
    /// removes the body.
    /// - Parameter form: The form.
    public mutating func setForm(_ form: FormData) {
        body = form.body
        headerFields[.contentType] = form.contentType
    }
}
