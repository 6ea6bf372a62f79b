import FoundationEssentials
import HTTPCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The package helpers other targets share (Modules/HTTPCore/Toolbox): each answers as the copies it replaced did.
struct ToolboxTests {
    @Test func defaultPortIsTheSchemesInAnyCase() throws {
        #expect(URL.defaultPort(forScheme: "https") == 443)
        #expect(URL.defaultPort(forScheme: "HTTPS") == 443)
        #expect(URL.defaultPort(forScheme: "wss") == 443)
        #expect(URL.defaultPort(forScheme: "http") == 80)
        #expect(URL.defaultPort(forScheme: "httpx") == 80)
        #expect(URL.defaultPort(forScheme: "ws") == 80)
        #expect(URL.defaultPort(forScheme: nil) == 80)
        #expect(try #require(URL(string: "https://example.com/")).effectivePort == 443)
        #expect(try #require(URL(string: "HTTP://example.com/")).effectivePort == 80)
        #expect(try #require(URL(string: "https://example.com:8443/")).effectivePort == 8443)
    }

    @Test func hexBothWays() {
        #expect(Hex.value(of: UInt8(ascii: "0")) == 0)
        #expect(Hex.value(of: UInt8(ascii: "F")) == 15)
        #expect(Hex.value(of: UInt8(ascii: "a")) == 10)
        #expect(Hex.value(of: UInt8(ascii: "g")) == nil)
        #expect(Hex.value(of: UInt8(ascii: "/")) == nil)
        #expect(Hex.lowercase([0x00, 0xFF, 0x1A]) == "00ff1a")
        #expect(Hex.lowercase([]) == "")
        #expect(Hex.percentDecoded("a%20b%2fc") == Array("a b/c".utf8))
        #expect(Hex.percentDecoded("100%") == Array("100%".utf8))
        #expect(Hex.percentDecoded("%zz%4") == Array("%zz%4".utf8))
        #expect(Hex.percentDecoded("%41") == [0x41])
    }

    @Test func positionalReadFillsAndReportsAShortFile() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "toolbox-\(UUID().uuidString)").path
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(try PositionalRead.chunk(fd, count: 4, at: 3) == Array("3456".utf8))
        #expect(try PositionalRead.chunk(fd, count: 0, at: 10) == [])
        #expect(throws: PositionalRead.Failure.self) { try PositionalRead.chunk(fd, count: 4, at: 8) }
        let error = #expect(throws: ClientError.self) {
            try PositionalRead.chunk(fd, count: 4, at: 8, path: path, stage: .transport)
        }
        #expect(error?.code == .storageFailed)
        #expect(error?.stage == .transport)
        #expect(error?.message == "\(path) became shorter while it was being sent")
        let closed = #expect(throws: ClientError.self) {
            try PositionalRead.chunk(-1, count: 1, at: 0, path: path, stage: nil)
        }
        #expect(closed?.message == "Cannot read \(path)")
        #expect(closed?.underlying is SyscallError)
    }

    @Test func endObservingBodyTellsHowItEnded() async throws {
        final class Ends: BodyEndObserver, @unchecked Sendable {  // only touched by the one test task
            var ends: [String] = []
            func bodyEnded(_ end: BodyEnd) {
                switch end {
                case .finished: ends.append("finished")
                case .failed: ends.append("failed")
                case .discarded: ends.append("discarded")
                }
            }
        }
        let observer = Ends()
        let body = EndObservingBodySource(base: ResponseBody(bytes: [1, 2, 3]).source, observer: observer)
        #expect(try await body.next() == [1, 2, 3])
        #expect(observer.ends.isEmpty)
        #expect(try await body.next() == nil)
        await body.discard()
        #expect(observer.ends == ["finished", "discarded"])
    }
}
