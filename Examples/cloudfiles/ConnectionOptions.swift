import ArgumentParser
import CloudFiles
import FoundationEssentials
import HTTPCore
import SocketTransport

#if canImport(Glibc)
import Glibc
#endif

/// `swift`'s connection options: `-A/-U/-K/-V`, with `ST_AUTH`, `ST_USER`, `ST_KEY` and `ST_AUTH_VERSION` as
/// defaults, and Keystone's project for `-V 3`.
struct ConnectionOptions: ParsableArguments {
    @Option(name: [.customShort("A"), .customLong("auth")], help: "The auth URL (ST_AUTH).")
    var auth: String?

    @Option(name: [.customShort("U"), .customLong("user")], help: "The user (ST_USER).")
    var user: String?

    @Option(name: [.customShort("K"), .customLong("key")], help: "The key or password (ST_KEY).")
    var key: String?

    @Option(
        name: [.customShort("V"), .customLong("auth-version")],
        help: "1.0 (tempauth, default), 2.0 (Rackspace identity with an API key) or 3 (Keystone) (ST_AUTH_VERSION).")
    var authVersion: String?

    @Option(name: .customLong("os-project-name"), help: "Keystone v3's project (OS_PROJECT_NAME).")
    var projectName: String?

    @Option(name: .customLong("os-region-name"), help: "The catalog's region (OS_REGION_NAME).")
    var regionName: String?

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The authentication the options and variables describe.
    /// - Returns: The authentication.
    /// - Throws: ``CommandFailure`` when something is missing.
    func authentication() throws -> CloudFilesAuthentication {
        guard let text = auth ?? Self.environment("ST_AUTH"), let url = URL(string: text), url.host != nil else {
            throw CommandFailure(
                "Auth version 1.0 requires ST_AUTH, ST_USER, and ST_KEY environment variables "
                    + "to be set or overridden with -A, -U, or -K.")
        }
        guard let user = user ?? Self.environment("ST_USER"), let key = key ?? Self.environment("ST_KEY") else {
            throw CommandFailure(
                "Auth version 1.0 requires ST_AUTH, ST_USER, and ST_KEY environment variables "
                    + "to be set or overridden with -A, -U, or -K.")
        }
        let region = regionName ?? Self.environment("OS_REGION_NAME")
        switch authVersion ?? Self.environment("ST_AUTH_VERSION") ?? "1.0" {
        case "1", "1.0": return .v1(url: url, user: user, key: key)
        case "2", "2.0": return .rackspace(url: url, username: user, apiKey: key, region: region)
        case "3", "3.0":
            guard let project = projectName ?? Self.environment("OS_PROJECT_NAME") else {
                throw CommandFailure("Auth version 3 requires --os-project-name (or OS_PROJECT_NAME).")
            }
            return .keystoneV3(url: url, user: user, password: key, project: project, region: region)
        case let other: throw CommandFailure("Unsupported auth version \(other) (1.0, 2.0 or 3).")
        }
    }

    /// A client, authenticated (an authentication failure is reported as `swift` reports it).
    /// - Returns: The client and its session.
    /// - Throws: ``CommandFailure``.
    func connect() async throws -> Connection {
        let authentication = try authentication()
        var options = RequestOptions()
        options.timeout = .seconds(60)
        let files = CloudFilesClient(transport: .posix(), authentication: authentication, options: options)
        do {
            let session = try await files.session()
            return Connection(files: files, storageURL: session.storageURL.absoluteString)
        } catch {
            try? await files.shutdown()
            throw CommandFailure.auth(error, url: authentication.url.absoluteString)
        }
    }
}

/// An authenticated client and its storage URL.
struct Connection {
    /// The client.
    let files: CloudFilesClient
    /// The storage URL, `http://host:port/v1/AUTH_account`.
    let storageURL: String

    /// The account's name: the storage URL's last component.
    var account: String { String(storageURL.split(separator: "/").last ?? "") }

    /// The URL of a container or object, for messages.
    func url(_ container: String? = nil, _ object: String? = nil) -> String {
        ([storageURL] + [container, object].compactMap { $0.map(Self.quoted) }).joined(separator: "/")
    }

    /// Python's `urllib.parse.quote` (safe `/`), as swiftclient writes names into its messages.
    static func quoted(_ name: String) -> String {
        let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/".utf8)
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = [UInt8]()
        for byte in name.utf8 {
            if safe.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xf)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
