import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// `asi --keyring` and the `.netrc` flags against a real httpbin (`/basic-auth/USER/PASSWORD`).
@Suite("asi: keyring and .netrc", .enabled(if: HttpbinPeer.shouldRun), .serialized)
struct ASICommandCredentialSourceTests {
    static let passphrase = ["ASI_KEYRING_PASSPHRASE": "keyring passphrase for the test"]

    static func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map(Array.init) }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard haystack.count >= pattern.count else { return false }
        return (0...(haystack.count - pattern.count)).contains { Array(haystack[$0..<$0 + pattern.count]) == pattern }
    }

    /// A first run whose -u credential httpbin accepts saves it in the keyring; a second run without -u is
    /// challenged and answers from the keyring; a run without the keyring is refused (22 with -f); a wrong passphrase
    /// stops before any request with a clear message and leaves the file byte for byte as it was; so does a file
    /// changed behind the keyring's back.
    @Test func keyringKeepsAcceptedCredentialsAcrossRuns() async throws {
        try await withHttpbin { httpbin in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-keyring")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let keyring = directory + "/keyring"
            let url = httpbin.url("/basic-auth/keyuser/k3yr1ng-s3cret").absoluteString
            let first = try await ASICommandRun.run(
                ["--keyring", keyring, "-u", "keyuser:k3yr1ng-s3cret", url], environment: Self.passphrase)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.output.contains("\"authenticated\": true"))
            var info = stat()
            #expect(stat(keyring, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let saved = try #require(Self.bytes(keyring))
            #expect(!Self.contains(saved, "k3yr1ng-s3cret") && !Self.contains(saved, "keyuser"))

            let second = try await ASICommandRun.run(["--keyring", keyring, url], environment: Self.passphrase)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.output.contains("\"user\": \"keyuser\""))

            let without = try await ASICommandRun.run(["-f", url])
            #expect(without.status == 22, "without the keyring nothing answers the challenge")

            let wrong = try await ASICommandRun.run(
                ["--keyring", keyring, url], environment: ["ASI_KEYRING_PASSPHRASE": "not it"])
            #expect(wrong.status == 2)
            #expect(wrong.stderr.contains("wrong passphrase"), "\(wrong.stderr)")
            #expect(!wrong.stderr.contains("not it"))
            #expect(Self.bytes(keyring) == saved)

            var tampered = saved
            tampered[tampered.count - 20] ^= 0x01
            try Data(tampered).write(to: URL(filePath: keyring))
            let damaged = try await ASICommandRun.run(["--keyring", keyring, url], environment: Self.passphrase)
            #expect(damaged.status == 2)
            #expect(damaged.stderr.contains("changed or is corrupt"), "\(damaged.stderr)")
            #expect(Self.bytes(keyring) == tampered)
        }
    }

    /// A bearer token httpbin's `/bearer` accepted is kept as a bearer token: a later run answers the 401 from the
    /// keyring with `Authorization: Bearer` (never as Basic), and the token is not in the file in plain text.
    @Test func keyringKeepsABearerTokenAsABearerToken() async throws {
        try await withHttpbin { httpbin in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-keyring-bearer")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let keyring = directory + "/keyring"
            let url = httpbin.url("/bearer").absoluteString
            let first = try await ASICommandRun.run(
                ["-f", "--keyring", keyring, "--oauth2-bearer", "b3arer-t0ken", url], environment: Self.passphrase)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.output.contains("b3arer-t0ken"), "httpbin echoes the token it accepted")
            #expect(!Self.contains(try #require(Self.bytes(keyring)), "b3arer-t0ken"))
            let second = try await ASICommandRun.run(["-f", "--keyring", keyring, url], environment: Self.passphrase)
            #expect(second.status == 0, "\(second.stderr)")
            #expect(second.output.contains("b3arer-t0ken"))
        }
    }

    /// --netrc-file, --netrc with $NETRC, and --netrc-optional (the URL's password wins over the file's).
    @Test func netrcFlagsAnswerBasicAuth() async throws {
        try await withHttpbin { httpbin in
            let directory = try makeTemporaryDirectory(prefix: "asikit-asi-netrc")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let netrc = directory + "/netrc"
            let text = """
                machine 127.0.0.1 login other password wrong-one
                machine 127.0.0.1 login nu password "n3trc pass"
                """
            try Data(text.utf8).write(to: URL(filePath: netrc))
            let url = httpbin.url("/basic-auth/other/wrong-one").absoluteString
            let byFile = try await ASICommandRun.run(["-f", "--netrc-file", netrc, url])
            #expect(byFile.status == 0, "the first entry for the host: \(byFile.stderr)")

            var picked = URLComponents(string: httpbin.url("/basic-auth/nu/n3trc%20pass").absoluteString)!
            picked.user = "nu"
            let byUser = try await ASICommandRun.run(["-f", "--netrc", picked.string!], environment: ["NETRC": netrc])
            #expect(byUser.status == 0, "the URL's user picks the second entry: \(byUser.stderr)")

            let optional = try await ASICommandRun.run([
                "-f", "--netrc-optional", "--netrc-file", netrc,
                "http://other:right@127.0.0.1:\(httpbin.port)/basic-auth/other/right",
            ])
            #expect(optional.status == 0, "the URL's password wins: \(optional.stderr)")

            let missing = try await ASICommandRun.run(["-f", "--netrc-file", directory + "/absent", url])
            #expect(missing.status == 22, "a missing file gives no credential")
        }
    }
}
