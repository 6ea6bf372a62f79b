import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// Corrupted input never crashes the parser and gives the same outcome however it is split; body bytes are
/// handed out as soon as they arrive.
struct HTTP1RobustnessTests {
    /// A small deterministic generator (SplitMix64), so failures reproduce.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    static let seeds: [String] = [
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: keep-alive\r\n\r\nhello",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nT: 1\r\n\r\n",
        "HTTP/1.0 404 Not Found\r\nX:\r\n folded\r\n\r\nbody until close",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nKeep-Alive: timeout=5, max=9\r\n\r\n",
    ]
    static let interesting: [UInt8] = Array("\r\n :;,0189aAfF-\t\"".utf8) + [0, 0x7F, 0x80, 0xFF]

    @Test(arguments: 0..<seeds.count)
    func mutatedInputIsSplitInvariant(_ seedIndex: Int) {
        var random = SplitMix(state: UInt64(seedIndex) &* 7919)
        let seed = Array(Self.seeds[seedIndex].utf8)
        let driver = ParserDriver(limits: HTTP1Limits(maxHeadBytes: 200, maxHeaderCount: 4, maxLineLength: 60))
        for _ in 0..<300 {
            var input = seed
            for _ in 0...random.below(3) {
                let position = random.below(input.count + 1)
                let byte = Self.interesting[random.below(Self.interesting.count)]
                switch random.below(3) {
                case 0: input.insert(byte, at: position)
                case 1 where position < input.count: input[position] = byte
                default: if position < input.count { input.remove(at: position) }
                }
            }
            for eof in [false, true] {
                var withEOF = driver
                withEOF.eof = eof
                let whole = withEOF.run(input, cuts: [])
                let bytewise = withEOF.run(input, cuts: Array(0..<input.count))
                var cuts = (0..<3).map { _ in random.below(input.count + 1) }
                cuts.sort()
                let random3 = withEOF.run(input, cuts: cuts)
                #expect(bytewise == whole, "input \(String(decoding: input, as: UTF8.self).debugDescription)")
                #expect(random3 == whole, "input \(String(decoding: input, as: UTF8.self).debugDescription) \(cuts)")
            }
        }
    }

    @Test func contentLengthBodyBytesComeOutImmediately() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        let first = try Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8).withUnsafeBytes {
            try parser.feed($0)
        }
        #expect(first.count == 2)
        if case .body(let bytes) = first.last { #expect(bytes == Array("abc".utf8)) } else { Issue.record("no body") }
        let second = try Array("d".utf8).withUnsafeBytes { try parser.feed($0) }
        if case .body(let bytes) = second.first { #expect(bytes == Array("d".utf8)) } else { Issue.record("no body") }
        #expect(!parser.hasBufferedBytes)
    }

    @Test func chunkDataComesOutBeforeTheChunkEnds() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhe"
        let events = try Array(wire.utf8).withUnsafeBytes { try parser.feed($0) }
        #expect(events.count == 2)
        if case .body(let bytes) = events.last { #expect(bytes == Array("he".utf8)) } else { Issue.record("no body") }
        #expect(!parser.hasBufferedBytes)
    }

    @Test func closeDelimitedBytesComeOutImmediately() throws {
        var parser = HTTP1ResponseParser()
        parser.expectResponse(toMethod: .get)
        _ = try Array("HTTP/1.1 200 OK\r\n\r\n".utf8).withUnsafeBytes { try parser.feed($0) }
        let events = try Array("xyz".utf8).withUnsafeBytes { try parser.feed($0) }
        if case .body(let bytes) = events.first { #expect(bytes == Array("xyz".utf8)) } else { Issue.record("no body") }
        let end = try parser.feedEOF()
        guard case .end(let trailers) = end.first else {
            Issue.record("no end")
            return
        }
        #expect(trailers == nil)
    }
}
