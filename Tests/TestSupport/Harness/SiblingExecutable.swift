import FoundationEssentials
import Glibc

/// The path of an executable product beside the running test executable.
/// - Parameter name: The product's name.
/// - Returns: Its path (which may not exist).
package func siblingExecutable(_ name: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    let executable =
        count > 0
        ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        : CommandLine.arguments[0]
    var directory = URL(filePath: executable).deletingLastPathComponent()
    // On Linux the tests run from `<bin>/<Package>PackageTests.xctest`; on macOS from inside a bundle.
    while directory.path(percentEncoded: false).contains(".xctest") { directory.deleteLastPathComponent() }
    return directory.appending(path: name).path(percentEncoded: false)
}
