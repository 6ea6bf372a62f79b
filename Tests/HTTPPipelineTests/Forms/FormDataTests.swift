import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

@Suite struct FormDataTests {
    @Test func urlEncodedEscapesLikeASIHTTPRequest() {
        let reserved = ":/?#[]@!$ &'()*+,;=\"<>%{}|\\^~`"
        let escaped = FormData.percentEncoded(reserved)
        #expect(escaped == "%3A%2F%3F%23%5B%5D%40%21%24%20%26%27%28%29%2A%2B%2C%3B%3D%22%3C%3E%25%7B%7D%7C%5C%5E%7E%60")
        #expect(FormData.percentEncoded("Az09-._") == "Az09-._")
        #expect(FormData.percentEncoded("é ü") == "%C3%A9%20%C3%BC")
    }

    @Test func urlEncodedBodyKeepsOrderAndRepeatedKeys() async throws {
        var form = FormData()
        form.add("Ben", forKey: "first name")
        form.add("red", forKey: "colour")
        form.add("blue & green", forKey: "colour")
        form.add(42, forKey: "n")
        #expect(form.effectiveFormat == .urlEncoded)
        #expect(form.contentType == "application/x-www-form-urlencoded; charset=utf-8")
        let body = try #require(form.body)
        let text = String(decoding: try await collect(body), as: UTF8.self)
        #expect(text == "first%20name=Ben&colour=red&colour=blue%20%26%20green&n=42")
        #expect(body.length == Int64(text.utf8.count))
    }

    @Test func setReplacesEveryValueForTheKey() async throws {
        var form = FormData()
        form.add("a", forKey: "k")
        form.add("x", forKey: "other")
        form.add("b", forKey: "k")
        form.set("c", forKey: "k")
        #expect(String(decoding: try await collect(form.body), as: UTF8.self) == "other=x&k=c")
    }

    @Test func anEmptyFormSendsNoBody() {
        let form = FormData()
        #expect(form.body == nil)
        #expect(form.contentType == nil)
        let request = Request(url: URL(string: "http://a.example/")!, form: form)
        #expect(request.body == nil)
        #expect(request.method == .post)
    }

    @Test func multipartLayoutIsASIHTTPRequests() async throws {
        var form = FormData()
        form.add("Ben", forKey: "name")
        form.addData(Array("PNGDATA".utf8), fileName: "a.png", contentType: "image/png", forKey: "photo")
        form.add("x", forKey: "second")
        #expect(form.effectiveFormat == .multipart)
        let b = form.boundary
        #expect(b.hasPrefix("0xKhTmLbOuNdArY-"))
        #expect(form.contentType == "multipart/form-data; charset=utf-8; boundary=\(b)")
        let expected =
            "--\(b)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nBen"
            + "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"second\"\r\n\r\nx"
            + "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n"
            + "Content-Type: image/png\r\n\r\nPNGDATA\r\n--\(b)--\r\n"
        let body = try #require(form.body)
        #expect(String(decoding: try await collect(body), as: UTF8.self) == expected)
        #expect(body.length == Int64(expected.utf8.count))
    }

    @Test func multipartCanBeAskedForWithoutFiles() async throws {
        var form = FormData(format: .multipart)
        form.add("v", forKey: "k")
        let b = form.boundary
        let text = String(decoding: try await collect(form.body), as: UTF8.self)
        #expect(text == "--\(b)\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n--\(b)--\r\n")
    }

    @Test func filePartsAreStreamedWithExactLengthAndReplayable() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        let big = (0..<(RequestBody.fileChunkSize * 2 + 123)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try writeFile(directory + "/data.bin", big)
        try writeFile(directory + "/notes.txt", Array("notes".utf8))
        var form = FormData()
        form.add("1", forKey: "id")
        try form.addFile(atPath: directory + "/data.bin", forKey: "files")
        try form.addFile(atPath: directory + "/notes.txt", fileName: "renamed.txt", forKey: "files")
        let body = try #require(form.body)
        guard case .stream = body.content else {
            Issue.record("a form with files must stream, not load the files")
            return
        }
        #expect(body.isReplayable)
        let first = try await collect(body)
        #expect(Int64(first.count) == body.length)
        #expect(try await collect(body) == first)
        let b = form.boundary
        let head =
            "--\(b)\r\nContent-Disposition: form-data; name=\"id\"\r\n\r\n1\r\n--\(b)\r\n"
            + "Content-Disposition: form-data; name=\"files\"; filename=\"data.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        let middle =
            "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"files\"; filename=\"renamed.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\nnotes\r\n--\(b)--\r\n"
        #expect(first == Array(head.utf8) + big + Array(middle.utf8))
    }

    @Test func setFileReplacesEarlierPartsForTheKey() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/b.json", Array("{}".utf8))
        var form = FormData()
        form.addData([1], forKey: "f")
        form.addData([2], forKey: "g")
        try form.setFile(atPath: directory + "/b.json", forKey: "f")
        let text = String(decoding: try await collect(form.body), as: UTF8.self)
        #expect(!text.contains("name=\"f\"; filename=\"file\""))
        #expect(text.contains("name=\"g\"; filename=\"file\"\r\nContent-Type: application/octet-stream"))
        #expect(text.contains("name=\"f\"; filename=\"b.json\"\r\nContent-Type: application/json"))
        form.setData([3], fileName: "x", forKey: "g")
        #expect(
            String(decoding: try await collect(form.body), as: UTF8.self).components(separatedBy: "name=\"g\"").count
                == 2)
    }

    @Test func aMissingFileOrADirectoryIsRejected() throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        var form = FormData()
        for path in [directory + "/missing.txt", directory] {
            let error = #expect(throws: ClientError.self) { try form.addFile(atPath: path, forKey: "f") }
            #expect(error?.code == .storageFailed)
            #expect(error?.message == "No file exists at \(path)")
        }
        #expect(form.isEmpty)
    }

    @Test func aFileThatChangesSizeFailsTheBody() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        try writeFile(directory + "/a.txt", Array("abc".utf8))
        var form = FormData()
        try form.addFile(atPath: directory + "/a.txt", forKey: "f")
        try writeFile(directory + "/a.txt", Array("abcdef".utf8))
        let error = await #expect(throws: ClientError.self) { _ = try await collect(form.body) }
        #expect(error?.code == .storageFailed)
    }

    @Test(arguments: [
        ("photo.JPG", "image/jpeg"), ("a/b/page.html", "text/html"), ("x.json", "application/json"),
        ("noext", "application/octet-stream"), (".hidden", "application/octet-stream"),
        ("data.unknownext", "application/octet-stream"),
    ])
    func mimeTypesComeFromTheExtension(path: String, type: String) {
        #expect(FormData.mimeType(forPath: path) == type)
    }

    @Test func putKeepsPutAndTheFormSetsTheContentType() async throws {
        var form = FormData()
        form.add("v", forKey: "k")
        var request = Request(url: URL(string: "http://a.example/")!, form: form, method: .put)
        #expect(request.method == .put)
        #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        request.headerFields[.contentType] = "text/custom"
        request.setForm(form)
        #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded; charset=utf-8")
        let transport = ScriptedTransport.ok
        _ = try await Client(transport: transport).send(request)
        #expect(transport.requests.first?.method == .put)
    }
}
