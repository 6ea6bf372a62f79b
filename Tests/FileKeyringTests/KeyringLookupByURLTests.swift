import FileKeyring
import FoundationEssentials
import HTTPCore
import Testing

/// Asking a keyring whether it holds a login for a URL, without sending a request
/// (`CredentialStore.credential(for:realm:)`, ASIHTTPRequest's `savedCredentialsForHost:port:protocol:realm:`).
@Suite struct KeyringLookupByURLTests {
    typealias Support = KeyringTestSupport

    @Test func aSavedLoginIsFoundByTheURLARequestWouldUse() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "\(directory)/keyring"
        let alice = Credential(user: "alice", password: "s3cret")
        let bob = Credential(user: "bob", password: "hunter2")
        let store = try Support.store(path)
        try await store.save(alice, for: CredentialScope(scheme: "https", host: "api.example", port: 443, realm: "API"))
        try await store.save(bob, for: CredentialScope(scheme: "http", host: "api.example", port: 8080))

        // A new process would open the file again: the lookup reads what is on disk.
        let reopened = try Support.store(path)
        let url = try #require(URL(string: "https://API.example/v1/items?page=2"))
        #expect(try await reopened.credential(for: url) == alice, "any realm, default port, host case ignored")
        #expect(try await reopened.credential(for: url, realm: "API") == alice)
        #expect(try await reopened.credential(for: url, realm: "Other") == nil)
        #expect(try await reopened.credential(for: try #require(URL(string: "https://api.example:443/"))) == alice)
        #expect(try await reopened.credential(for: try #require(URL(string: "http://api.example:8080/x"))) == bob)
        for other in ["http://api.example/", "https://api.example:8443/", "https://www.api.example/"] {
            #expect(try await reopened.credential(for: try #require(URL(string: other))) == nil, "\(other)")
        }
        #expect(try await reopened.credential(for: try #require(URL(string: "file:///etc/passwd"))) == nil)
    }

    @Test func aProxyLoginNeverAnswersAServerLookup() async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Support.store("\(directory)/keyring")
        let proxy = CredentialScope(scheme: "http", host: "proxy.example", port: 3128, target: .proxy)
        try await store.save(Credential(user: "p", password: "q"), for: proxy)
        #expect(try await store.credential(for: try #require(URL(string: "http://proxy.example:3128/"))) == nil)
    }

    @Test func theNetrcStoreAnswersTheSameQuestion() async throws {
        let netrc = try NetrcFile(parsing: Array("machine files.example login carol password pw\n".utf8))
        let store = NetrcCredentialStore(file: netrc)
        let found = try await store.credential(for: try #require(URL(string: "https://files.example/a")))
        #expect(found?.user == "carol")
    }
}
