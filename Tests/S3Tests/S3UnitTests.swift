import AmazonS3
import Foundation
import HTTPCore
import HTTPPipeline
import HTTPTesting
import S3
import Testing

/// The S3 plug-in without a server: credentials, endpoints and URLs, XML answers, the signing middleware.
@Suite struct S3UnitTests {
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    static let credentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: secret, sessionToken: "TOKEN123")

    @Test func credentialsNeverShowTheSecret() {
        let credentials = Self.credentials
        for text in ["\(credentials)", String(describing: credentials), String(reflecting: credentials)] {
            #expect(text.contains("AKIDEXAMPLE"))
            #expect(!text.contains(Self.secret))
            #expect(!text.contains("TOKEN123"))
        }
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains(Self.secret) && !dumped.contains("TOKEN123"))
        #expect(Mirror(reflecting: credentials).children.isEmpty)
    }

    @Test func credentialsFromTheEnvironment() {
        let found = AWSCredentials.fromEnvironment([
            "AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK", "AWS_SESSION_TOKEN": "ST",
        ])
        #expect(found == AWSCredentials(accessKeyID: "AK", secretAccessKey: "SK", sessionToken: "ST"))
        #expect(AWSCredentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "AK"]) == nil)
        #expect(
            AWSCredentials.fromEnvironment(["AWS_ACCESS_KEY_ID": "AK", "AWS_SECRET_ACCESS_KEY": "SK"])?.sessionToken
                == nil)
        #expect(AWSCredentials.sharedFilePath(["HOME": "/home/u"]) == "/home/u/.aws/credentials")
        #expect(AWSCredentials.sharedFilePath(["AWS_SHARED_CREDENTIALS_FILE": "/x/creds"]) == "/x/creds")
    }

    @Test func credentialsFromASharedFileProfile() throws {
        let path = NSTemporaryDirectory() + "asikit-s3-credentials-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
        # comment
        [default]
        aws_access_key_id = AKDEFAULT
        aws_secret_access_key = SKDEFAULT

        [profile work]
        aws_access_key_id=AKWORK
        aws_secret_access_key=SKWORK
        aws_session_token = TKWORK
        ; another comment
        [broken]
        aws_access_key_id = ONLYKEY
        """.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try AWSCredentials.fromSharedFile(path: path, profile: "default").accessKeyID == "AKDEFAULT")
        let work = try AWSCredentials.fromSharedFile(path: path, profile: "work")
        #expect(work == AWSCredentials(accessKeyID: "AKWORK", secretAccessKey: "SKWORK", sessionToken: "TKWORK"))
        do {
            _ = try AWSCredentials.fromSharedFile(path: path, profile: "broken")
            Issue.record("an incomplete profile was accepted")
        } catch let error as ClientError {
            #expect(error.code == .invalidConfiguration)
            #expect(!error.message.contains("ONLYKEY"))
        }
        #expect(throws: ClientError.self) {
            try AWSCredentials.fromSharedFile(path: path + ".missing", profile: "default")
        }
    }

    @Test func pathAndVirtualHostURLs() throws {
        let path = try S3Endpoint(url: URL(string: "http://127.0.0.1:9000")!, region: "us-east-1")
        #expect(path.url(bucket: "b", key: "a/b c+d~ü").absoluteString == "http://127.0.0.1:9000/b/a/b%20c%2Bd~%C3%BC")
        #expect(path.url(bucket: nil).absoluteString == "http://127.0.0.1:9000/")
        #expect(
            path.url(bucket: "b", query: [("list-type", "2"), ("prefix", "a/b"), ("uploads", nil)]).absoluteString
                == "http://127.0.0.1:9000/b?list-type=2&prefix=a%2Fb&uploads")
        let aws = S3Endpoint.aws(region: "eu-west-1")
        #expect(
            aws.url(bucket: "photos", key: "x.jpg").absoluteString == "https://photos.s3.eu-west-1.amazonaws.com/x.jpg")
        #expect(throws: ClientError.self) { try S3Endpoint(url: URL(string: "ftp://host/")!, region: "us-east-1") }
        let create = S3Requests(endpoint: aws).createBucket("photos")
        #expect(create.body != nil, "outside us-east-1 a bucket names its LocationConstraint")
        let copy = S3Requests(endpoint: path).copyObject(from: "s", key: "k 1", to: "d", key: "k2")
        #expect(copy.headerFields[HTTPField.Name("x-amz-copy-source")!] == "/s/k%201")
    }

    @Test func errorDocumentsAreTyped() {
        let body = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>\
            <Key>a.txt</Key><RequestId>4442587FB7D0A2F9</RequestId></Error>
            """.utf8)
        let error = S3ResponseParser.error(status: 404, body: body)
        #expect(
            error
                == S3Error(
                    code: .noSuchKey, status: 404, message: "The specified key does not exist.",
                    requestID: "4442587FB7D0A2F9", resource: "a.txt"))
        #expect(S3ResponseParser.error(status: 403, body: []).code == .forbidden)
        #expect(S3ResponseParser.error(status: 500, body: Array("<html>oops".utf8)).code == .unknown)
        #expect(throws: S3Error.self) { try S3ResponseParser.eTag(body, root: "CompleteMultipartUploadResult") }
    }

    @Test func listPagesParse() throws {
        let body = Array(
            """
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name><KeyCount>3</KeyCount>\
            <IsTruncated>true</IsTruncated><NextContinuationToken>tok&amp;en</NextContinuationToken>\
            <Contents><Key>a&lt;1</Key><Size>12</Size><ETag>"e1"</ETag>\
            <LastModified>2026-01-02T03:04:05.000Z</LastModified>\
            <StorageClass>STANDARD</StorageClass></Contents>\
            <Contents><Key><![CDATA[b]]></Key><Size>0</Size></Contents>\
            <CommonPrefixes><Prefix>dir/</Prefix></CommonPrefixes></ListBucketResult>
            """.utf8)
        let page = try S3ResponseParser.listPage(body)
        #expect(page.objects.map(\.key) == ["a<1", "b"])
        #expect(
            page.objects[0].size == 12 && page.objects[0].eTag == "\"e1\"" && page.objects[0].storageClass == .standard)
        #expect(page.commonPrefixes == ["dir/"])
        #expect(page.isTruncated && page.nextContinuationToken == "tok&en" && page.keyCount == 3)
        #expect(throws: ClientError.self) { try S3ResponseParser.listPage(Array("<ListBucketResult><Key>".utf8)) }
        #expect(throws: S3Error.self) { try S3ResponseParser.listPage(Array("<Other/>".utf8)) }
        let buckets = try S3ResponseParser.buckets(
            Array(
                """
                <ListAllMyBucketsResult><Buckets><Bucket><Name>one</Name><CreationDate>2026</CreationDate></Bucket>\
                <Bucket><Name>two</Name></Bucket></Buckets></ListAllMyBucketsResult>
                """.utf8))
        #expect(buckets.map(\.name) == ["one", "two"])
        #expect(
            try S3ResponseParser.uploadID(
                Array(
                    "<InitiateMultipartUploadResult><UploadId>U1</UploadId></InitiateMultipartUploadResult>".utf8))
                == "U1")
    }

    /// The middleware signs every attempt anew: a redirect to another path is signed for that path, with the
    /// session token, the payload hash and a fresh date.
    @Test func middlewareSignsEveryHop() async throws {
        let transport = ScriptedTransport(sequence: [
            Response.redirect(307, to: "http://127.0.0.1:9000/b/moved"), Response(status: .ok),
        ])
        let signer = S3SigningMiddleware(
            signer: SigV4Signer(credentials: Self.credentials, region: "us-east-1"),
            now: { Date(timeIntervalSince1970: 1_440_938_160) })
        let client = Client(transport: transport, middleware: [signer])
        var request = Request(url: URL(string: "http://127.0.0.1:9000/b/k")!, method: .put, body: .string("data"))
        request.headerFields[HTTPField.Name.authorization] = "Basic bm90OnVzZWQ="
        _ = try await client.send(request)
        let sent = transport.requests
        #expect(sent.count == 2)
        for (attempt, path) in zip(sent, ["/b/k", "/b/moved"]) {
            let authorization = attempt.headerFields[.authorization] ?? ""
            #expect(
                authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/s3/aws4_request"))
            #expect(authorization.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token"))
            #expect(attempt.headerFields[HTTPField.Name("x-amz-security-token")!] == "TOKEN123")
            #expect(
                attempt.headerFields[HTTPField.Name("x-amz-content-sha256")!]
                    == SigV4Input.payloadHash(of: Array("data".utf8)))
            #expect(attempt.url.path == path)
        }
        #expect(
            sent[0].headerFields[HTTPField.Name.authorization] != sent[1].headerFields[HTTPField.Name.authorization])
        try await client.shutdown()
    }

    /// A file body is not hashed for S3 (`UNSIGNED-PAYLOAD`); a host out of scope is not signed at all.
    @Test func middlewarePayloadAndScope() async throws {
        let transport = ScriptedTransport.ok
        let signer = S3SigningMiddleware(
            signer: SigV4Signer(credentials: Self.credentials, region: "us-east-1"), scope: .hosts(["s3.test"]))
        let client = Client(transport: transport, middleware: [signer])
        let path = NSTemporaryDirectory() + "asikit-s3-body-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "file body".write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await client.send(
            Request(url: URL(string: "http://b.s3.test/k")!, method: .put, body: try .file(atPath: path)))
        _ = try await client.send(Request(url: URL(string: "http://elsewhere.test/k")!))
        let sent = transport.requests
        #expect(sent[0].headerFields[HTTPField.Name("x-amz-content-sha256")!] == "UNSIGNED-PAYLOAD")
        #expect(sent[0].headerFields[HTTPField.Name.authorization] != nil)
        #expect(sent[1].headerFields[HTTPField.Name.authorization] == nil)
        try await client.shutdown()
    }
}
