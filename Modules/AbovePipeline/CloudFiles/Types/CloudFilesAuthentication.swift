public import FoundationEssentials

/// How a ``CloudFilesClient`` gets its token and storage URL: Swift's v1 (tempauth, swauth, Rackspace's legacy
/// endpoint), Keystone v3 password authentication, or Rackspace identity v2 with an API key.
///
/// Its description never shows the key or password.
///
/// ```swift
/// let auth = CloudFilesAuthentication.v1(url: URL(string: "http://127.0.0.1:8080/auth/v1.0")!,
///                                         user: "test:tester", key: "testing")
/// ```
public struct CloudFilesAuthentication: Sendable, CustomStringConvertible {
    enum Method: Sendable {
        case v1(user: String, key: String)
        case keystoneV3(KeystoneV3)
        case rackspaceV2(username: String, apiKey: String, region: String?)
    }

    /// Keystone v3 password authentication's parameters.
    struct KeystoneV3: Sendable {
        var user: String
        var password: String
        var userDomain: String
        var project: String
        var projectDomain: String
        var region: String?
        var interface: String
    }

    /// The identity endpoint: `…/auth/v1.0`, `…/v3` (Keystone) or `…/v2.0` (Rackspace).
    public let url: URL
    let method: Method

    /// v1 authentication: `GET url` with `X-Auth-User` and `X-Auth-Key`; the answer's `X-Auth-Token`,
    /// `X-Storage-Url` (and Rackspace's `X-CDN-Management-Url`). ASICloudFilesRequest's only method.
    /// - Parameters:
    ///   - url: The auth URL, for example `http://127.0.0.1:8080/auth/v1.0`.
    ///   - user: The user, `account:user` for tempauth.
    ///   - key: The key (password).
    /// - Returns: The authentication.
    public static func v1(url: URL, user: String, key: String) -> CloudFilesAuthentication {
        CloudFilesAuthentication(url: url, method: .v1(user: user, key: key))
    }

    /// Keystone v3 password authentication: `POST url/auth/tokens` scoped to a project; the token from
    /// `X-Subject-Token`, the storage URL from the catalog's `object-store` endpoint for the region and interface.
    /// - Parameters:
    ///   - url: Keystone's v3 URL, for example `https://keystone.example.com:5000/v3`.
    ///   - user: The user's name.
    ///   - password: The password.
    ///   - userDomain: The user's domain name; `Default` by default.
    ///   - project: The project's name.
    ///   - projectDomain: The project's domain name; `Default` by default.
    ///   - region: The catalog region to use; the first object-store endpoint when `nil`.
    ///   - interface: `public` (default), `internal` or `admin`.
    /// - Returns: The authentication.
    public static func keystoneV3(
        url: URL, user: String, password: String, userDomain: String = "Default", project: String,
        projectDomain: String = "Default", region: String? = nil, interface: String = "public"
    ) -> CloudFilesAuthentication {
        CloudFilesAuthentication(
            url: url,
            method: .keystoneV3(
                KeystoneV3(
                    user: user, password: password, userDomain: userDomain, project: project,
                    projectDomain: projectDomain, region: region, interface: interface)))
    }

    /// Rackspace identity v2: `POST url/tokens` with `RAX-KSKEY:apiKeyCredentials`; the storage URL from the
    /// catalog's `cloudFiles` endpoint and the CDN management URL from `cloudFilesCDN`.
    /// - Parameters:
    ///   - url: The identity URL, for example `https://identity.api.rackspacecloud.com/v2.0`.
    ///   - username: The user name.
    ///   - apiKey: The API key.
    ///   - region: The region (`DFW`, `LON`, …); the first endpoint when `nil`.
    /// - Returns: The authentication.
    public static func rackspace(
        url: URL, username: String, apiKey: String, region: String? = nil
    )
        -> CloudFilesAuthentication
    {
        CloudFilesAuthentication(url: url, method: .rackspaceV2(username: username, apiKey: apiKey, region: region))
    }

    /// The method, URL and user; never the key or password.
    public var description: String {
        switch method {
        case .v1(let user, _): "v1 \(user) at \(url.absoluteString)"
        case .keystoneV3(let k): "Keystone v3 \(k.userDomain)/\(k.user) project \(k.project) at \(url.absoluteString)"
        case .rackspaceV2(let username, _, _): "Rackspace v2 \(username) at \(url.absoluteString)"
        }
    }

    /// Who the token belongs to: keys the cached token in a `CredentialStore`.
    var identity: String {
        switch method {
        case .v1(let user, _): "v1:\(user)"
        case .keystoneV3(let k): "v3:\(k.userDomain)/\(k.user)@\(k.projectDomain)/\(k.project):\(k.region ?? "")"
        case .rackspaceV2(let username, _, let region): "rax:\(username):\(region ?? "")"
        }
    }
}
