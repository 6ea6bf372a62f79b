import FoundationEssentials
import HTTPCore

/// HTTP Basic authentication (RFC 7617): `Basic base64(user ":" password)` in UTF-8.
enum BasicAuthentication {
    static func authorization(for credential: Credential) -> String {
        let bytes = Array("\(credential.user):\(credential.password)".utf8)
        return "Basic " + Data(bytes).base64EncodedString()
    }
}
