import CookieFile
import FoundationEssentials
import HTTPCore
import TestSupport
import Testing

/// The 32 MiB cap on a cookie file (`Docs/Limits.md`) at its boundary.
@Suite struct CookieFileSizeLimitTests {
    let url = URL(string: "http://www.example.com/")!

    /// A cookie line followed by comment lines, `size` bytes in all.
    static func file(size: Int) -> [UInt8] {
        let cookie = Array("www.example.com\tFALSE\t/\tFALSE\t0\tkept\tyes\n".utf8)
        var bytes = cookie
        bytes.reserveCapacity(size)
        let line = Array(("# " + String(repeating: "x", count: 1021) + "\n").utf8)  // 1 KiB
        while bytes.count + line.count <= size { bytes += line }
        let rest = size - bytes.count
        if rest > 0 { bytes += Array(("#" + String(repeating: "x", count: rest - 1)).utf8) }
        return bytes
    }

    @Test func aFileOfExactlyTheCapIsReadOneByteMoreIsRefused() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cookies.txt"
        let cap = 32 * 1024 * 1024
        try Data(Self.file(size: cap)).write(to: URL(filePath: path))
        let store = try CookieFileStore(path: path)
        #expect(await store.cookies(for: url).map(\.name) == ["kept"])

        try Data(Self.file(size: cap + 1)).write(to: URL(filePath: path))
        let error = try #require(throws: ClientError.self) { try CookieFileStore(path: path) }
        #expect(error.code == .storageFailed)
        #expect(error.message.hasPrefix("The cookie file is larger than 32 MiB"))
    }
}
