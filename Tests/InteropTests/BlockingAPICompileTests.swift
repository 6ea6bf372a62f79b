import FoundationEssentials
import Glibc
import TestSupport
import Testing

/// The blocking API's compile-time contract: `Client.sendSynchronously` is `noasync`, so a direct call in async code
/// is a compile error (in the Swift 6 language mode) instead of a trap at run time, while a call from synchronous
/// code compiles. Checked by type-checking a small file with the toolchain's `swiftc` against the modules this
/// test was built with.
@Suite struct BlockingAPICompileTests {
    static let probe = """
        import HTTPCore
        import HTTPPipeline

        func fromSynchronousCode(_ client: Client, _ request: Request) throws {
            _ = try client.sendSynchronously(request)
        }

        func fromAsyncCode(_ client: Client, _ request: Request) async throws {
            _ = try client.sendSynchronously(request)  // line 9
        }

        """

    @Test func sendSynchronouslyDoesNotCompileInAsyncCode() async throws {
        let swiftc = try #require(ChildProcess.find("swiftc"), "swiftc is not in PATH")
        let modules = try #require(Self.modulesDirectory(), "no Modules folder beside the test binary")
        let directory = try makeTemporaryDirectory(prefix: "asikit-noasync")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let source = directory + "/probe.swift"
        try Data(Self.probe.utf8).write(to: URL(filePath: source))
        let log = directory + "/swiftc.log"
        let compiler = try ChildProcess(
            executable: swiftc,
            arguments: [
                "-typecheck", "-swift-version", "6", "-I", modules, "-module-cache-path", directory + "/cache",
                source,
            ],
            logPath: log)
        let status = await compiler.exited()
        let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        #expect(status != 0, "a blocking call in async code compiled:\n\(output)")
        let errors = output.split(separator: "\n").filter { $0.hasPrefix(source) && $0.contains(": error:") }
        #expect(errors.count == 1, "\(output)")
        #expect(errors.first?.hasPrefix(source + ":9:") == true, "only the async call fails:\n\(output)")
        #expect(errors.first?.contains("unavailable from asynchronous contexts") == true, "\(output)")
        #expect(errors.first?.contains("use 'try await send(_:)'") == true, "the message says what to use instead")
    }

    /// `Modules/` in the folder of the running test binary, where SwiftPM puts the `.swiftmodule` files.
    static func modulesDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        var path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        while path.count > 1 {
            path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            let candidate = path + "/Modules/HTTPPipeline.swiftmodule"
            if access(candidate, F_OK) == 0 { return path + "/Modules" }
        }
        return nil
    }
}
