import CloudFiles
import Foundation
import HTTPCore
import HTTPPipeline
import SocketTransport
import TestSupport
import Testing

/// Temp URL signatures: known vectors (Python's hmac), python-swiftclient's `tempurl --absolute`, and a real Swift
/// that serves a signed URL to a client without a token and refuses a wrong signature with 401.
@Suite struct CloudFilesTempURLTests {
    /// HMAC-SHA256 (default), SHA-1 and SHA-512 prefix signatures, as Python's hmac computes them.
    @Test func knownSignatures() {
        let path = "/v1/AUTH_test/c/o"
        #expect(
            CloudFilesTempURL.signature(method: "GET", path: path, expires: 1_900_000_000, key: "k3y")
                == "86a91cf90f9a875f13f1633cb94ccdfeb81d47022acb6fbedeb2d50c8652ba71")
        #expect(
            CloudFilesTempURL.signature(
                method: "GET", path: path, expires: 1_900_000_000, key: "k3y", digest: .sha1)
                == "d778c614fa99bb9bc2b24b3f05b14a07c1ef12d6")
        let prefix = CloudFilesTempURL.signature(
            method: "GET", path: "/v1/AUTH_test/c/pre", expires: 1_900_000_000, key: "k3y", digest: .sha512,
            prefix: true)
        #expect(prefix.hasPrefix("59e2a1705b6c1e92c8506d56f0203a0902d94f247fe85bb5709485d16a3e5ab9"))
        #expect(prefix.count == 128)
        let query = CloudFilesTempURL.query(
            method: "GET", path: "/v1/AUTH_test/c/pre", expires: 1, key: "k", prefix: true, filename: "a b.txt",
            inline: true)
        #expect(query.hasSuffix("&temp_url_expires=1&temp_url_prefix=pre&filename=a%20b.txt&inline"))
    }

    /// The same URL as `swift tempurl --absolute` for the same expiry; a real Swift serves it without a token
    /// (SHA-256, SHA-1, SHA-512, a prefix URL) and refuses a changed signature or an expired URL with 401.
    @Test(.enabled(if: OpenStackSwiftPeer.shouldRun)) func signedURLsAgainstSwift() async throws {
        try await withOpenStackSwift { peer in
            let files = SwiftTestSupport.client(peer, user: "t6:tester")
            try await files.createContainer("shared")
            try await files.putObject(container: "shared", name: "pre/report one.txt", body: .string("report"))
            try await files.updateAccountMetadata(["Temp-URL-Key": "k3y"])

            let path = "/v1/AUTH_t6/shared/pre/report one.txt"
            let reference = try peer.swiftclient(
                user: "t6:tester", ["tempurl", "--absolute", "GET", "1900000000", path, "k3y"])
            let ours =
                path + "?" + CloudFilesTempURL.query(method: "GET", path: path, expires: 1_900_000_000, key: "k3y")
            #expect(reference.output.trimmingCharacters(in: .whitespacesAndNewlines) == ours)

            // No token: a 401 is the response (the pipeline does not fail on Swift's challenge).
            let anonymous = Client(transport: .posix())
            func plain(_ url: URL, method: HTTPRequest.Method = .get) -> Request {
                var request = Request(url: url, method: method)
                request.options.failsOnUnansweredChallenge = false
                if method == .put { request.body = .string("overwritten") }
                return request
            }
            for digest in [CloudFilesTempURL.Digest.sha256, .sha1, .sha512] {
                let url = try await files.tempURL(
                    container: "shared", name: "pre/report one.txt", expiresIn: 600, key: "k3y", digest: digest)
                let response = try await anonymous.send(plain(url))
                #expect(response.status.code == 200, "\(digest)")
                #expect(response.body == Array("report".utf8))
            }
            let prefixURL = try await files.tempURL(
                container: "shared", name: "pre/", expiresIn: 600, key: "k3y", prefix: true, filename: "r.txt")
            let prefixed = try await anonymous.send(
                plain(
                    URL(
                        string: prefixURL.absoluteString.replacing(
                            "/pre/?", with: "/pre/report%20one.txt?"))!))
            #expect(prefixed.status.code == 200)
            #expect(prefixed.headerFields[HTTPField.Name("Content-Disposition")!]?.contains("r.txt") == true)

            let good = try await files.tempURL(
                container: "shared", name: "pre/report one.txt", expiresIn: 600, key: "k3y")
            let wrongKey = try await files.tempURL(
                container: "shared", name: "pre/report one.txt", expiresIn: 600, key: "wrong")
            #expect(try await anonymous.send(plain(wrongKey)).status.code == 401)
            let expired = URL(
                string: peer.url.absoluteString + "/v1/AUTH_t6/shared/pre/report%20one.txt?"
                    + CloudFilesTempURL.query(method: "GET", path: path, expires: 1_000_000, key: "k3y"))!
            #expect(try await anonymous.send(plain(expired)).status.code == 401)
            #expect(try await anonymous.send(plain(good, method: .put)).status.code == 401)
            try await anonymous.shutdown()
        }
    }
}
