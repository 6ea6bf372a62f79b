import FoundationEssentials
import HTTPCore

extension AWSCredentials {
    /// Reads `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, as the AWS tools do.
    /// - Parameter environment: The variables to read; the process's environment when `nil`.
    /// - Returns: The credentials, or `nil` when the key ID or the secret is missing or empty.
    public static func fromEnvironment(
        _ environment: [String: String]? = nil
    ) -> AWSCredentials? {
        let environment = environment ?? ProcessInfo.processInfo.environment
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else { return nil }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
    }

    /// The shared credentials file the AWS tools use: `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`.
    /// - Parameter environment: The variables to read; the process's environment when `nil`.
    /// - Returns: The path.
    public static func sharedFilePath(
        _ environment: [String: String]? = nil
    ) -> String {
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let path = environment["AWS_SHARED_CREDENTIALS_FILE"], !path.isEmpty { return path }
        return (environment["HOME"] ?? "") + "/.aws/credentials"
    }

    /// Reads one profile of a shared credentials file (INI: `[profile]`, then `aws_access_key_id`,
    /// `aws_secret_access_key`, `aws_session_token`; `#` and `;` start comments).
    /// - Parameters:
    ///   - path: The file; ``sharedFilePath(_:)`` by default.
    ///   - profile: The profile; `AWS_PROFILE`, else `default`.
    /// - Returns: The profile's credentials.
    /// - Throws: ``ClientError`` with ``ClientError/Code/invalidConfiguration`` when the file cannot be read or
    ///   the profile or one of its keys is missing (the message names the file and profile, never a value).
    public static func fromSharedFile(path: String? = nil, profile: String? = nil) throws -> AWSCredentials {
        let environment = ProcessInfo.processInfo.environment
        let path = path ?? sharedFilePath(environment)
        let profile = profile ?? environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ClientError(.invalidConfiguration, message: "Cannot read the AWS credentials file \(path)")
        }
        let values = SharedCredentialsFile.values(in: String(decoding: data, as: UTF8.self), profile: profile)
        guard let key = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] else {
            throw ClientError(
                .invalidConfiguration, message: "No complete profile [\(profile)] in the AWS credentials file \(path)")
        }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }
}

/// The INI reading of the shared credentials file.
enum SharedCredentialsFile {
    /// The `key = value` pairs of the section named `profile` (or `profile <name>`), keys lowercased.
    static func values(in text: String, profile: String) -> [String: String] {
        var current: String?
        var values = [String: String]()
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = rawLine.trimmedOfSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                var name = String(line.dropFirst().dropLast()).trimmedOfSpaces
                if name.hasPrefix("profile ") { name = String(name.dropFirst(8)).trimmedOfSpaces }
                current = name
                continue
            }
            guard current == profile, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmedOfSpaces.lowercased()
            let value = line[line.index(after: equals)...].trimmedOfSpaces
            if values[key] == nil { values[key] = value }
        }
        return values
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    var trimmedOfSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
