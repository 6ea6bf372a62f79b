import CloudFiles
import Foundation
import HTTPCore
import HTTPPipeline
import HTTPTesting
import SocketTransport
import Synchronization
import TestSupport
import Testing

/// Keystone v3 and Rackspace identity v2 against the in-process loopback server (no Keystone can run here): the
/// request documents, the catalog choice by region and interface, the token sent to storage, one renewal on a
/// 401 and only one, and sessions kept in a credential store.
@Suite struct CloudFilesIdentityTests {
    /// A loopback server speaking both token APIs and a scripted storage account at `/v1/AUTH_x`.
    final class IdentityServer: Sendable {
        final class State: Sendable {
            let mutex = Mutex((issued: 0, storageStatuses: [Int]()))
            func withLock<T: Sendable>(_ body: (inout (issued: Int, storageStatuses: [Int])) -> sending T) -> T {
                mutex.withLock { body(&$0) }
            }
        }

        let server: LoopbackServer
        private let state = State()

        /// - Parameter storageStatuses: The statuses of the storage requests in turn (200 once they run out).
        /// - Throws: `ClientError` when the loopback server cannot listen.
        init(storageStatuses: [Int] = []) throws {
            let state = self.state
            state.withLock { $0.storageStatuses = storageStatuses }
            server = try LoopbackServer { request in
                if request.method == "POST" && (request.path == "/v3/auth/tokens" || request.path == "/v2.0/tokens") {
                    let token = state.withLock { state -> String in
                        state.issued += 1
                        return "token-\(state.issued)"
                    }
                    return IdentityServer.identityAnswer(request, token: token)
                }
                if request.path == "/cdn/AUTH_x" {
                    let marker = request.query?.contains("marker=") == true
                    let page = #"[{"name":"web","cdn_enabled":true,"ttl":900,"cdn_uri":"http://cdn.example/web"}]"#
                    return .status(200, body: marker ? [] : Array(page.utf8))
                }
                if request.path.hasPrefix("/v1/AUTH_x") || request.path.hasPrefix("/cdn/") {
                    let status = state.withLock { $0.storageStatuses.isEmpty ? 200 : $0.storageStatuses.removeFirst() }
                    return .status(
                        status, headers: [("X-Trans-Id", "tx-\(status)")],
                        body: status == 401
                            ? Array(
                                "<html><h1>Unauthorized</h1><p>This server could not verify that you are authorized."
                                    .utf8) : [])
                }
                return .status(404)
            }
        }

        var issued: Int { state.withLock { $0.issued } }
        var base: String { server.baseURL.absoluteString }

        static func identityAnswer(_ request: RecordedRequest, token: String) -> LoopbackResponse {
            let base = "http://127.0.0.1:\(request.header("Host")?.split(separator: ":").last ?? "0")"
            if request.path == "/v3/auth/tokens" {
                guard request.bodyText.contains("\"password\":\"secret\"") else { return .status(401) }
                let catalog = """
                    {"token":{"expires_at":"2099-01-01T00:00:00Z","catalog":[
                    {"type":"identity","endpoints":[{"interface":"public","region":"One","url":"\(base)/v3"}]},
                    {"type":"object-store","endpoints":[
                    {"interface":"public","region":"One","region_id":"One","url":"\(base)/v1/AUTH_one"},
                    {"interface":"internal","region":"Two","region_id":"Two","url":"\(base)/v1/AUTH_internal"},
                    {"interface":"public","region":"Two","region_id":"Two","url":"\(base)/v1/AUTH_x"}]}]}}
                    """
                return .status(
                    201, headers: [("X-Subject-Token", token), ("Content-Type", "application/json")],
                    body: Array(catalog.utf8))
            }
            guard request.bodyText.contains("\"apiKey\":\"api-key\"") else { return .status(401) }
            let access = """
                {"access":{"token":{"id":"\(token)","expires":"2099-01-01T00:00:00Z"},"serviceCatalog":[
                {"name":"cloudFiles","type":"object-store","endpoints":[
                {"region":"DFW","publicURL":"\(base)/v1/AUTH_dfw"},{"region":"ORD","publicURL":"\(base)/v1/AUTH_x"}]},
                {"name":"cloudFilesCDN","type":"rax:object-cdn","endpoints":[
                {"region":"ORD","publicURL":"\(base)/cdn/AUTH_x"}]}]}}
                """
            return .status(200, headers: [("Content-Type", "application/json")], body: Array(access.utf8))
        }
    }

    private func keystone(_ server: IdentityServer, password: String = "secret") -> CloudFilesAuthentication {
        .keystoneV3(
            url: URL(string: server.base + "/v3")!, user: "alice", password: password, project: "demo",
            region: "Two", interface: "public")
    }

    /// Keystone v3: the password document, the token from `X-Subject-Token`, the public endpoint of region Two; the
    /// token goes to storage requests and never into a description.
    @Test func keystoneV3() async throws {
        let identity = try IdentityServer()
        let files = CloudFilesClient(transport: .posix(), authentication: keystone(identity))
        let session = try await files.session()
        #expect(session.storageURL.absoluteString == identity.base + "/v1/AUTH_x")
        #expect(session.token == "token-1")
        #expect(!session.description.contains("token-1"))
        #expect(!keystone(identity).description.contains("secret"))
        _ = try await files.containerInfo("c")
        let auth = identity.server.requests.first { $0.path == "/v3/auth/tokens" }
        let document = try JSONSerialization.jsonObject(with: Data(auth?.body ?? [])) as? [String: Any]
        let scope = ((document?["auth"] as? [String: Any])?["scope"] as? [String: Any])?["project"] as? [String: Any]
        #expect(scope?["name"] as? String == "demo")
        #expect((scope?["domain"] as? [String: Any])?["name"] as? String == "Default")
        let storage = identity.server.requests.first { $0.path == "/v1/AUTH_x/c" }
        #expect(storage?.header("X-Auth-Token") == "token-1")
        #expect(auth?.header("X-Auth-Token") == nil)

        let internalEndpoint = CloudFilesClient(
            transport: .posix(),
            authentication: .keystoneV3(
                url: URL(string: identity.base + "/v3")!, user: "alice", password: "secret", project: "demo",
                region: "Two", interface: "internal"))
        #expect(try await internalEndpoint.session().storageURL.path() == "/v1/AUTH_internal")
        let missing = CloudFilesClient(
            transport: .posix(),
            authentication: .keystoneV3(
                url: URL(string: identity.base + "/v3")!, user: "alice", password: "secret", project: "demo",
                region: "Three"))
        do {
            _ = try await missing.session()
            Issue.record("a region missing from the catalog was accepted")
        } catch let error as CloudFilesError {
            #expect(error.code == .authenticationFailed)
            #expect(error.message.contains("region Three"))
        }
        do {
            _ = try await CloudFilesClient(transport: .posix(), authentication: keystone(identity, password: "wrong"))
                .session()
            Issue.record("a wrong password was accepted")
        } catch let error as CloudFilesError {
            #expect(error.code == .unauthorized && error.status == 401)
        }
        try await files.shutdown()
    }

    /// Rackspace identity v2: `RAX-KSKEY:apiKeyCredentials`, the region's cloudFiles endpoint and its CDN URL.
    @Test func rackspaceV2() async throws {
        let identity = try IdentityServer()
        let files = CloudFilesClient(
            transport: .posix(),
            authentication: .rackspace(
                url: URL(string: identity.base + "/v2.0")!, username: "bob", apiKey: "api-key", region: "ORD"))
        let session = try await files.session()
        #expect(session.storageURL.path() == "/v1/AUTH_x")
        #expect(session.cdnManagementURL?.path() == "/cdn/AUTH_x")
        let auth = identity.server.requests.first { $0.path == "/v2.0/tokens" }
        #expect(auth?.bodyText.contains("\"RAX-KSKEY:apiKeyCredentials\":{\"username\":\"bob\"") == true)
        try await files.enableCDN(container: "web", ttl: 900)
        let cdn = identity.server.requests.first { $0.path == "/cdn/AUTH_x/web" }
        #expect(cdn?.method == "PUT")
        #expect(cdn?.header("X-CDN-Enabled") == "True")
        #expect(cdn?.header("X-TTL") == "900")
        #expect(cdn?.header("X-Auth-Token") == "token-1")
        let published = try await files.listCDNContainers(enabledOnly: true).all()
        #expect(published.map(\.name) == ["web"])
        #expect(published.first?.cdnEnabled == true && published.first?.ttl == 900)
        #expect(published.first?.cdnURI == "http://cdn.example/web")
        #expect(identity.server.requests.contains { $0.target == "/cdn/AUTH_x?format=json&enabled_only=true" })
        // OpenStack Swift has no CDN: a session without a CDN URL is refused locally.
        let keystoneFiles = CloudFilesClient(transport: .posix(), authentication: keystone(identity))
        await #expect(throws: CloudFilesError.self) { try await keystoneFiles.enableCDN(container: "web") }
    }

    /// A 401 from storage renews the token once and sends the request again with the new one; a second 401 is the
    /// caller's `.unauthorized`, after one renewal only.
    @Test func renewsOnceOn401() async throws {
        let identity = try IdentityServer(storageStatuses: [401, 204, 401, 401])
        let files = CloudFilesClient(transport: .posix(), authentication: keystone(identity))
        _ = try await files.containerInfo("c")
        #expect(identity.issued == 2)
        let tokens = identity.server.requests.filter { $0.path == "/v1/AUTH_x/c" }.map { $0.header("X-Auth-Token") }
        #expect(tokens == ["token-1", "token-2"])
        do {
            _ = try await files.getObject(container: "c", name: "o")
            Issue.record("a second 401 was not reported")
        } catch let error as CloudFilesError {
            #expect(error.code == .unauthorized)
            #expect(error.transactionID == "tx-401")
            #expect(error.message.contains("Unauthorized"))
            #expect(!error.description.contains("token-"))
        }
        #expect(identity.issued == 3)
    }

    /// A session kept in a credential store is used by the next client without authenticating; a stale stored
    /// token is replaced after its 401.
    @Test func sessionInCredentialStore() async throws {
        let identity = try IdentityServer(storageStatuses: [204, 401, 204])
        let store = SessionCredentialStore()
        let first = CloudFilesClient(transport: .posix(), authentication: keystone(identity), credentialStore: store)
        _ = try await first.containerInfo("c")
        #expect(identity.issued == 1)
        let second = CloudFilesClient(transport: .posix(), authentication: keystone(identity), credentialStore: store)
        _ = try await second.containerInfo("c")
        #expect(identity.issued == 2)
        #expect(try await second.session().token == "token-2")
        let third = CloudFilesClient(transport: .posix(), authentication: keystone(identity), credentialStore: store)
        #expect(try await third.session().token == "token-2")
        #expect(identity.issued == 2)
    }

    /// A stored token refused by storage, and credentials the identity service refuses too: the caller gets the
    /// storage's 401 as `.unauthorized`, not a wrapped middleware error.
    @Test func refusedRenewalIsUnauthorized() async throws {
        let identity = try IdentityServer(storageStatuses: [204, 401])
        let store = SessionCredentialStore()
        _ = try await CloudFilesClient(transport: .posix(), authentication: keystone(identity), credentialStore: store)
            .containerInfo("c")
        let revoked = CloudFilesClient(
            transport: .posix(), authentication: keystone(identity, password: "wrong"), credentialStore: store)
        do {
            _ = try await revoked.getObject(container: "c", name: "o")
            Issue.record("a refused renewal was not reported")
        } catch let error as CloudFilesError {
            #expect(error.code == .unauthorized && error.status == 401)
            #expect(error.transactionID == "tx-401")
        }
        #expect(identity.issued == 2)
    }
}
