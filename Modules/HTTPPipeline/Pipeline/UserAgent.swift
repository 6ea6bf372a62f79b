#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the default `User-Agent`, the Linux counterpart of ASIHTTPRequest's `defaultUserAgentString`.
enum UserAgent {
    /// `<process name> (Linux <kernel release>; <machine>) ASIKit/<version>`, for example
    /// `tour (Linux 6.1.0; x86_64) ASIKit/0.1.0`.
    static let `default`: String = {
        let process = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let name = process.isEmpty ? "ASIKit" : process
        return "\(name) (Linux \(release); \(machine)) ASIKit/\(Client.frameworkVersion)"
    }()
}
