import FoundationEssentials
import HTTPCore

/// The identity requests of each method, and how their answers become a ``CloudFilesSession``.
enum IdentityRequests {
    /// What an identity answer carried, read from its head and body.
    struct Answer {
        var status: Int
        var fields: HTTPFields
        var body: [UInt8]
    }

    /// The request that authenticates.
    static func request(for auth: CloudFilesAuthentication, options: RequestOptions) -> Request {
        switch auth.method {
        case .v1(let user, let key):
            var request = Request(url: auth.url, method: .get, options: options)
            request.headerFields[HTTPField.Name("X-Auth-User")!] = user
            request.headerFields[HTTPField.Name("X-Auth-Key")!] = key
            return request
        case .keystoneV3(let k):
            let body = """
                {"auth":{"identity":{"methods":["password"],"password":{"user":{"name":\(JSONText.string(k.user)),\
                "domain":{"name":\(JSONText.string(k.userDomain))},"password":\(JSONText.string(k.password))}}},\
                "scope":{"project":{"name":\(JSONText.string(k.project)),\
                "domain":{"name":\(JSONText.string(k.projectDomain))}}}}}
                """
            return jsonPost(auth.url.appending(path: "auth/tokens"), body: body, options: options)
        case .rackspaceV2(let username, let apiKey, _):
            let body = """
                {"auth":{"RAX-KSKEY:apiKeyCredentials":{"username":\(JSONText.string(username)),\
                "apiKey":\(JSONText.string(apiKey))}}}
                """
            return jsonPost(auth.url.appending(path: "tokens"), body: body, options: options)
        }
    }

    private static func jsonPost(_ url: URL, body: String, options: RequestOptions) -> Request {
        var request = Request(url: url, method: .post, body: .string(body), options: options)
        request.headerFields[.contentType] = "application/json"
        request.headerFields[.accept] = "application/json"
        return request
    }

    /// The session in an identity answer.
    /// - Throws: ``CloudFilesError`` with the answer's status when it failed, or `.authenticationFailed` when it
    ///   lacks a token or a storage endpoint.
    static func session(from answer: Answer, for auth: CloudFilesAuthentication) throws -> CloudFilesSession {
        guard (200..<300).contains(answer.status) else {
            throw CloudFilesResponses.error(status: answer.status, fields: answer.fields, body: answer.body)
        }
        switch auth.method {
        case .v1:
            guard
                let token = answer.fields[HTTPField.Name("X-Auth-Token")!]
                    ?? answer.fields[
                        HTTPField.Name("X-Storage-Token")!],
                let storage = answer.fields[HTTPField.Name("X-Storage-Url")!].flatMap(URL.init(string:))
            else { throw missing("X-Auth-Token or X-Storage-Url") }
            let cdn = answer.fields[HTTPField.Name("X-CDN-Management-Url")!].flatMap(URL.init(string:))
            return CloudFilesSession(token: token, storageURL: storage, cdnManagementURL: cdn)
        case .keystoneV3(let k):
            guard let token = answer.fields[HTTPField.Name("X-Subject-Token")!] else {
                throw missing("X-Subject-Token")
            }
            let document = try decode(KeystoneToken.self, answer.body)
            let endpoints = (document.token.catalog ?? []).filter { $0.type == "object-store" }.flatMap(\.endpoints)
            let endpoint = endpoints.first {
                $0.interface == k.interface && (k.region == nil || $0.region == k.region || $0.regionId == k.region)
            }
            guard let endpoint, let storage = URL(string: endpoint.url) else {
                throw missing("object-store endpoint (\(k.interface), region \(k.region ?? "any")) in the catalog")
            }
            return CloudFilesSession(token: token, storageURL: storage)
        case .rackspaceV2(_, _, let region):
            let access = try decode(RackspaceAccess.self, answer.body).access
            func url(named name: String) -> URL? {
                let endpoints = access.serviceCatalog.first { $0.name == name }?.endpoints ?? []
                let chosen = endpoints.first { region == nil || $0.region == region }
                return chosen?.publicURL.flatMap(URL.init(string:))
            }
            guard let storage = url(named: "cloudFiles") else {
                throw missing("cloudFiles endpoint (region \(region ?? "any")) in the catalog")
            }
            return CloudFilesSession(
                token: access.token.id, storageURL: storage, cdnManagementURL: url(named: "cloudFilesCDN"))
        }
    }

    private static func missing(_ what: String) -> CloudFilesError {
        CloudFilesError(code: .authenticationFailed, message: "the identity answer has no \(what)")
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(type, from: Data(body))
        } catch {
            throw CloudFilesError(code: .authenticationFailed, message: "the identity answer is not the JSON expected")
        }
    }
}

// The parts of the identity documents that are read (snake case converted).
struct KeystoneToken: Decodable {
    struct Token: Decodable { var catalog: [Service]? }
    struct Service: Decodable {
        var type: String
        var endpoints: [Endpoint]
    }
    struct Endpoint: Decodable {
        var interface: String
        var region: String?
        var regionId: String?
        var url: String
    }
    var token: Token
}

struct RackspaceAccess: Decodable {
    struct Access: Decodable {
        var token: Token
        var serviceCatalog: [Service]
    }
    struct Token: Decodable { var id: String }
    struct Service: Decodable {
        var name: String
        var endpoints: [Endpoint]
    }
    struct Endpoint: Decodable {
        var region: String?
        var publicURL: String?
    }
    var access: Access
}
