import FoundationEssentials
import HTTPCore
import HTTPPipeline

/// Builds the request for one URL from the flags.
struct RequestBuilder: Sendable {
    var method: String?
    var headers: [String]
    var data: [String]
    var dataBinary: [String]
    var form: [String]
    var uploadFile: String?
    /// `-C OFFSET` with `-T`: send the file from this byte on, with `Content-Range`.
    var uploadOffset: Int64? = nil
    var head: Bool
    var cookies: [String]
    /// Whether `-b` or `-c` turned on the cookie store, as they turn on curl's cookie engine.
    var usesCookieEngine: Bool
    var credential: Credential?
    var preemptiveBasic: Bool
    var options: RequestOptions
    /// The `.netrc` and keyring flags' sources.
    var sources: CredentialSources

    /// The request for a target.
    /// - Throws: ``TransferFailure``: 26 when a file to send cannot be read, 2 for a bad header field.
    func make(for target: Target) throws(TransferFailure) -> Request {
        var request = Request(url: target.url, options: options)
        for line in headers { try addHeader(line, to: &request) }
        do {
            try setBody(of: &request)
        } catch {
            throw TransferFailure.readFailed(error)
        }
        if let method {
            request.method = HTTPRequest.Method(method) ?? request.method
            request.options.keepsMethodWithBody = true  // -X is sent as given, body or not (as curl does)
            request.options.keepsMethodOnRedirect = true  // and on every redirect hop, as curl's -X
        } else if head {
            request.method = .head
        }
        if let credential {
            request.options.credential = credential
            if preemptiveBasic { request.options.authenticationScheme = .basic }
        }
        sources.apply(to: &request, preemptive: preemptiveBasic)
        request.options.usesPersistentCredentialStore = sources.keyring != nil
        let host = target.url.host() ?? ""
        request.options.requestCookies = cookies.filter { $0.contains("=") }.flatMap {
            Self.parseCookies($0, domain: host)
        }
        request.options.usesCookieStore = usesCookieEngine
        if case .file(let path) = target.destination {
            request.options.download = DownloadOptions(
                destinationPath: path, temporaryPath: target.resumes ? path : nil, allowsResume: target.resumes)
        }
        return request
    }

    private func addHeader(_ line: String, to request: inout Request) throws(TransferFailure) {
        guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
            throw TransferFailure(2, "Bad header field: \(line.prefix(40))")
        }
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        if value.isEmpty {
            request.headerFields[name] = nil  // curl's "Name:" removes the field
        } else {
            request.headerFields.append(HTTPField(name: name, value: String(value)))
        }
    }

    private func setBody(of request: inout Request) throws {
        if !form.isEmpty {
            var formData = FormData(format: .multipart)
            for part in form { try FormPart.add(part, to: &formData) }
            let contentType = request.headerFields[.contentType]
            request.setForm(formData)
            if let contentType { request.headerFields[.contentType] = contentType }
            request.method = .post
        } else if uploadFile == "-" {
            request.body = StandardInputBody.make()
            request.method = .put
        } else if let uploadFile {
            if let uploadOffset {
                try UploadResume.apply(path: uploadFile, offset: uploadOffset, to: &request)
            } else {
                request.body = try .file(atPath: uploadFile)
            }
            request.method = .put
            if request.url.path().hasSuffix("/"), let name = uploadFile.split(separator: "/").last {
                request.url.append(path: String(name))
            }
        } else if data.isEmpty, dataBinary.count == 1, dataBinary[0].hasPrefix("@") {
            request.body = try .file(atPath: String(dataBinary[0].dropFirst()))
            request.method = .post
        } else if !data.isEmpty || !dataBinary.isEmpty {
            var parts: [[UInt8]] = []
            for item in data {
                parts.append(try Self.contents(item).filter { $0 != 0x0A && $0 != 0x0D })
            }
            for item in dataBinary { parts.append(try Self.contents(item)) }
            request.body = .bytes(Array(parts.joined(separator: [UInt8(ascii: "&")])))
            request.method = .post
        } else {
            return
        }
        if (!data.isEmpty || !dataBinary.isEmpty) && request.headerFields[.contentType] == nil {
            request.headerFields[.contentType] = "application/x-www-form-urlencoded"
        }
    }

    /// The bytes of a `-d` argument: the text, or with `@` the file's contents.
    static func contents(_ item: String) throws -> [UInt8] {
        guard item.hasPrefix("@") else { return Array(item.utf8) }
        let path = String(item.dropFirst())
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ClientError(.storageFailed, message: "No file exists at \(path)")
        }
        return Array(data)
    }

    /// The cookies in `name=value; name2=value2`, for `host`.
    static func parseCookies(_ text: String, domain: String) -> [Cookie] {
        text.split(separator: ";").compactMap { pair in
            let trimmed = FormPart.trimmed(pair)
            guard let equals = trimmed.firstIndex(of: "="), equals != trimmed.startIndex else { return nil }
            return Cookie(
                name: String(trimmed[..<equals]), value: String(trimmed[trimmed.index(after: equals)...]),
                domain: domain)
        }
    }
}
