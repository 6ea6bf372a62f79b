import ArgumentParser
import FoundationEssentials
import HTTPCore
import S3

/// curl's `--aws-sigv4 PROVIDER1[:PROVIDER2[:REGION[:SERVICE]]]`: sign every request with AWS Signature Version 4,
/// the key from `-u KEY:SECRET`. A missing region and service are read from the host name as curl does
/// (`SERVICE.REGION.amazonaws.com`). asi signs the `aws:amz` family only (AWS and S3-compatible servers).
struct AWSSigV4Flags: ParsableArguments {
    @Option(
        name: .customLong("aws-sigv4"),
        help: ArgumentHelp(
            "Sign requests with AWS Signature Version 4 (e.g. aws:amz:us-east-1:s3), the key from -u KEY:SECRET.",
            valueName: "provider1[:provider2[:region[:service]]]"))
    var awsSigV4: String?

    /// What `--aws-sigv4` names.
    struct Scope: Equatable {
        var region: String
        var service: String
    }

    /// The region and service of the flag, read from `host` when the flag leaves them out.
    /// - Parameters:
    ///   - value: The flag's value.
    ///   - host: The first URL's host.
    /// - Returns: The scope.
    /// - Throws: `ValidationError` for a provider other than `aws:amz`, or a region or service that the flag does
    ///   not give and the host does not tell.
    static func scope(_ value: String, host: String?) throws -> Scope {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 4, parts[0].lowercased() == "aws", parts.count < 2 || parts[1].lowercased() == "amz"
        else {
            throw ValidationError("--aws-sigv4 takes aws[:amz[:region[:service]]] (asi signs the aws:amz family only).")
        }
        var labels = (host ?? "").split(separator: ".").map(String.init)
        if labels.count < 3 || labels.last?.allSatisfy(\.isNumber) == true { labels = [] }  // not an IP address
        let region = parts.count > 2 && !parts[2].isEmpty ? parts[2] : labels.count >= 3 ? labels[1] : nil
        let service = parts.count > 3 && !parts[3].isEmpty ? parts[3] : labels.count >= 3 ? labels[0] : nil
        guard let region, let service else {
            throw ValidationError("--aws-sigv4: give the region and service (aws:amz:REGION:SERVICE) for this host.")
        }
        return Scope(region: region, service: service)
    }

    /// The signing middleware, or `nil` without the flag.
    /// - Parameters:
    ///   - user: `-u`'s `KEY:SECRET`.
    ///   - url: The first URL, for a region and service the flag leaves out.
    /// - Returns: The middleware.
    /// - Throws: `ValidationError` without `-u KEY:SECRET` or with a bad flag value.
    func middleware(user: String?, url: String?) throws -> S3SigningMiddleware? {
        guard let awsSigV4 else { return nil }
        guard let user, let colon = user.firstIndex(of: ":") else {
            throw ValidationError("--aws-sigv4 needs -u ACCESS_KEY:SECRET_KEY.")
        }
        let scope = try Self.scope(awsSigV4, host: url.flatMap { URL(string: $0)?.host })
        let credentials = AWSCredentials(
            accessKeyID: String(user[..<colon]), secretAccessKey: String(user[user.index(after: colon)...]))
        return S3SigningMiddleware(credentials: credentials, region: scope.region, service: scope.service)
    }
}
