import AmazonS3
import Foundation
import HTTPCore
import HTTPTesting
import S3
import Testing

/// Every public type of `S3` and `AmazonS3` crosses into a detached task (compile-time `Sendable` check).
@Suite struct S3SendableTests {
    @Test func publicTypesAreSendable() async throws {
        let credentials = AWSCredentials(accessKeyID: "AK", secretAccessKey: "SK")
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1")
        let endpoint = S3Endpoint.aws(region: "us-east-1")
        let requests = S3Requests(endpoint: endpoint)
        let middleware = S3SigningMiddleware(signer: signer)
        let input = SigV4Input(method: "GET", path: "/", headerFields: [("Host", "h")])
        let signature = signer.sign(input, at: Date(timeIntervalSince1970: 0))
        let options = S3ObjectOptions(acl: .private, storageClass: .glacier)
        let page = S3ListPage(objects: [S3ObjectSummary(key: "k", size: 1)])
        let head = S3ObjectHead(fields: [:])
        let values: (S3Bucket, S3CompletedPart, S3Error, S3Client.MultipartConfiguration) = (
            S3Bucket(name: "b"), S3CompletedPart(partNumber: 1, eTag: "e"), S3Error(code: .noSuchKey, status: 404),
            S3Client.MultipartConfiguration()
        )
        let s3 = S3Client(transport: ScriptedTransport.ok, endpoint: endpoint, credentials: credentials)
        let pages = s3.listObjects(bucket: "b")
        let count = await Task.detached {
            _ = (credentials, signer, endpoint, requests, middleware, input, signature, options, page, head, values)
            _ = (s3, pages, S3Endpoint.AddressingStyle.path, S3SigningMiddleware.Scope.all)
            return signature.signature.count
        }.value
        #expect(count == 64)
        try await s3.shutdown()
    }
}
