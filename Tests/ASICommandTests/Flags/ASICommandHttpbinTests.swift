import CodecTestSupport
import FoundationEssentials
import TestSupport
import Testing

/// `asi`'s request flags against a real httpbin: `-X`, `-H`, `-A`, `-d`, `--data-binary`, `-F`, `-T`, `-u`,
/// `--anyauth`, `-b`, `--compress-request`, `--compressed`, `-L`, `--max-redirs`, `--post301`/`--post302`,
/// `--http1.0`, `-w` and `-v`.
@Suite("asi: httpbin", .enabled(if: HttpbinPeer.shouldRun), .serialized)
struct ASICommandHttpbinTests {
    /// httpbin's echo of a request (`/anything`), for requests whose form fields are not repeated.
    struct Echo: Decodable {
        var method: String
        var url: String
        var data: String
        var form: [String: String]
        var files: [String: String]
        var headers: [String: String]
    }

    static func echo(_ run: ASICommandRun) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: Data(run.stdout))
    }

    static func file(_ bytes: [UInt8], in directory: String, named name: String) throws -> String {
        let path = directory + "/" + name
        try DataPath.write(bytes, to: path)
        return path
    }

    @Test func requestMethodHeaderAndUserAgent() async throws {
        try await withHttpbin { httpbin in
            let run = try await ASICommandRun.run([
                "-X", "PATCH", "-H", "X-Asi-Test: yes", "-H", "X-Empty:", "-A", "asi-test/1.0",
                httpbin.url("/anything").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let echo = try Self.echo(run)
            #expect(echo.method == "PATCH")
            #expect(echo.headers["X-Asi-Test"] == "yes")
            #expect(echo.headers["X-Empty"] == nil)
            #expect(echo.headers["User-Agent"] == "asi-test/1.0")
        }
    }

    @Test func dataPostsAFormAndDataBinarySendsBytesAsTheyAre() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let formFile = try Self.file(Array("b=2\n&c=3\r\n".utf8), in: directory, named: "form.txt")
            let url = httpbin.url("/anything").absoluteString
            let data = try await ASICommandRun.run(["-d", "a=1", "-d", "@" + formFile, url])
            #expect(data.status == 0, "\(data.stderr)")
            let form = try Self.echo(data)
            #expect(form.method == "POST")
            #expect(form.form == ["a": "1", "b": "2", "c": "3"], "-d @FILE drops line breaks; repeats join with &")
            #expect(form.headers["Content-Type"] == "application/x-www-form-urlencoded")

            let lines = "line one\nline two\r\n"
            let textFile = try Self.file(Array(lines.utf8), in: directory, named: "lines.txt")
            let binary = try await ASICommandRun.run(
                ["--data-binary", "@" + textFile, "-H", "Content-Type: text/plain", url])
            let echo = try Self.echo(binary)
            #expect(echo.data == lines, "--data-binary keeps line breaks")
            #expect(echo.headers["Content-Type"] == "text/plain")
            #expect(echo.headers["Content-Length"] == "\(lines.utf8.count)")
        }
    }

    @Test func formSendsMultipartValuesAndFiles() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let upload = try Self.file(Array("file contents\n".utf8), in: directory, named: "upload.txt")
            let note = try Self.file(Array("from a file".utf8), in: directory, named: "note.txt")
            let run = try await ASICommandRun.run([
                "-F", "name=Ben Copsey", "-F", "upload=@\(upload);type=text/plain;filename=renamed.txt",
                "-F", "note=<" + note, httpbin.url("/anything").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let echo = try Self.echo(run)
            #expect(echo.method == "POST")
            #expect(echo.form == ["name": "Ben Copsey", "note": "from a file"])
            #expect(echo.files == ["upload": "file contents\n"])
            #expect(echo.headers["Content-Type"]?.hasPrefix("multipart/form-data;") == true)
        }
    }

    @Test func uploadFilePuts() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = try Self.file(Array("uploaded text".utf8), in: directory, named: "u.txt")
            let run = try await ASICommandRun.run(["-T", path, httpbin.url("/anything/").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            let echo = try Self.echo(run)
            #expect(echo.method == "PUT")
            #expect(echo.data == "uploaded text")
            #expect(echo.url.hasSuffix("/anything/u.txt"))
        }
    }

    @Test func userSendsBasicCredentialsUpFrontOrWhenChallenged() async throws {
        try await withHttpbin { httpbin in
            let url = httpbin.url("/basic-auth/alice/wonder land").absoluteString
            for extra in [[], ["--anyauth"]] {
                let run = try await ASICommandRun.run(extra + ["-u", "alice:wonder land", url])
                #expect(run.status == 0, "\(extra): \(run.stderr)")
                #expect(run.output.contains("\"authenticated\": true"))
            }
            let wrong = try await ASICommandRun.run(["-u", "alice:nope", "-w", "%{http_code}", url])
            #expect(wrong.status == 0, "\(wrong.stderr)")
            #expect(wrong.output.hasSuffix("401"))
            #expect(!wrong.stderr.contains("nope"))
        }
    }

    @Test func cookieSendsCookies() async throws {
        try await withHttpbin { httpbin in
            let run = try await ASICommandRun.run([
                "-b", "a=1; flavour=oatmeal", httpbin.url("/cookies").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            struct Cookies: Decodable { var cookies: [String: String] }
            let cookies = try JSONDecoder().decode(Cookies.self, from: Data(run.stdout))
            // RFC 6265 §5.4: one Cookie line, so httpbin sees both cookies separately.
            #expect(cookies.cookies == ["a": "1", "flavour": "oatmeal"])
        }
    }

    @Test func cookieJarWritesCookiesThatCookieReadsBack() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let jar = directory + "/jar.txt"
            let set = try await ASICommandRun.run(
                ["-L", "-c", jar, httpbin.url("/cookies/set?flavour=oatmeal").absoluteString])
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.output.contains("\"flavour\": \"oatmeal\""), "the cookie followed the redirect")
            let lines = String(decoding: DataPath.read(jar) ?? [], as: UTF8.self).split(separator: "\n")
            #expect(lines.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tflavour\toatmeal"), "\(lines)")

            let sent = try await ASICommandRun.run(["-b", jar, httpbin.url("/cookies").absoluteString])
            #expect(sent.output.contains("\"flavour\": \"oatmeal\""), "\(sent.output)")

            let noEngine = try await ASICommandRun.run([
                "-L", httpbin.url("/cookies/set?flavour=oatmeal").absoluteString,
            ])
            #expect(!noEngine.output.contains("oatmeal"), "without -b or -c no cookie is kept, as in curl")
        }
    }

    @Test func compressRequestGzipsTheBodyAndCompressedInflatesResponses() async throws {
        try await withHttpbin { httpbin in
            let text = String(decoding: DataPath.text(5_000), as: UTF8.self)
            let run = try await ASICommandRun.run([
                "--compress-request", "--data-binary", text, "-H", "Content-Type: application/octet-stream",
                httpbin.url("/anything").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let echo = try Self.echo(run)
            #expect(echo.headers["Content-Encoding"] == "gzip")
            let prefix = "data:application/octet-stream;base64,"
            #expect(echo.data.hasPrefix(prefix))
            let sent = try #require(Data(base64Encoded: String(echo.data.dropFirst(prefix.count))))
            #expect(sent.count < text.utf8.count / 4)
            #expect(try DataPath.gunzip(Array(sent)) == Array(text.utf8))

            let gzip = httpbin.url("/gzip").absoluteString
            let inflated = try await ASICommandRun.run([gzip])
            #expect(inflated.output.contains("\"gzipped\": true"))
            #expect(inflated.output.contains("\"Accept-Encoding\": \"deflate, gzip, br, zstd\""))
            let raw = try await ASICommandRun.run(["--no-compressed", gzip])
            #expect(raw.stdout.prefix(2) == [0x1F, 0x8B], "httpbin gzips /gzip anyway; without --compressed it stays")
            #expect(try String(decoding: DataPath.gunzip(raw.stdout), as: UTF8.self).contains("\"gzipped\": true"))
        }
    }

    @Test func redirectsAreFollowedOnlyWithLocation() async throws {
        try await withHttpbin { httpbin in
            let format = ["-w", "%{http_code}|%{num_redirects}|%{url_effective}"]
            let url = httpbin.url("/redirect/3").absoluteString
            let stay = try await ASICommandRun.run(["-o", "/dev/null", url] + format)
            #expect(stay.status == 0, "\(stay.stderr)")
            #expect(stay.output == "302|0|\(url)")

            let follow = try await ASICommandRun.run(["-L", "-o", "/dev/null", url] + format)
            #expect(follow.output == "200|3|\(httpbin.url("/get").absoluteString)")
        }
    }

    @Test func post301AndPost302KeepPOSTAcrossRedirects() async throws {
        try await withHttpbin { httpbin in
            for status in [301, 302] {
                let url = httpbin.url("/redirect-to?url=/anything&status_code=\(status)").absoluteString
                let browser = try Self.echo(try await ASICommandRun.run(["-L", "-d", "x=1", url]))
                #expect(browser.method == "GET", "\(status) turns POST into GET, as in curl")
                #expect(browser.form.isEmpty)

                let kept = try Self.echo(try await ASICommandRun.run(["-L", "--post\(status)", "-d", "x=1", url]))
                #expect(kept.method == "POST")
                #expect(kept.form == ["x": "1"])
            }
        }
    }

    @Test func http10SendsHTTP10() async throws {
        try await withHttpbin { httpbin in
            let run = try await ASICommandRun.run(["-i", "--http1.0", httpbin.url("/get").absoluteString])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output.hasPrefix("HTTP/1.0 200 OK\r\n"), "gunicorn answers in the request's version")
            let eleven = try await ASICommandRun.run(["-i", httpbin.url("/get").absoluteString])
            #expect(eleven.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test func writeOutReportsTheTransfer() async throws {
        try await withHttpbin { httpbin in
            let directory = try DataPath.directory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = try await ASICommandRun.run([
                "-L", "-o", directory + "/out", httpbin.url("/redirect/2").absoluteString,
                "-w", "%{http_code}|%{size_download}|%{url_effective}|%{num_redirects}|%{content_type}|%%\\n",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let size = DataPath.read(directory + "/out")?.count ?? -1
            #expect(run.output == "200|\(size)|\(httpbin.url("/get").absoluteString)|2|application/json|%\n")
        }
    }

    @Test func verboseLogsTheExchangeWithoutSecrets() async throws {
        try await withHttpbin { httpbin in
            let basic = "YWxpY2U6czNjcmV0LXB3"  // base64 of alice:s3cret-pw
            let run = try await ASICommandRun.run([
                "-v", "-u", "alice:s3cret-pw", "-b", "session=c00kie-value", httpbin.url("/headers").absoluteString,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.output.contains("Basic \(basic)"), "the credentials were sent")
            #expect(run.output.contains("session=c00kie-value"), "the cookie was sent")
            #expect(run.stderr.contains("> GET /headers HTTP/1.1"))
            #expect(run.stderr.contains("< HTTP/1.1 200 OK"))
            #expect(run.stderr.contains("[HTTPPipeline] started"), "the pipeline's debug log")
            #expect(run.stderr.contains("[SocketTransport]"), "the transport's debug log")
            for secret in ["s3cret-pw", "c00kie-value", basic] {
                #expect(!run.stderr.contains(secret), "\(secret) leaked: \(run.stderr)")
            }
        }
    }
}
