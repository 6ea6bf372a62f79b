import CookieFile
import FoundationEssentials
import HTTPCore
import TestSupport
import Testing

/// What a cookie file holds reads back as the same cookies, byte for byte, or is refused on the way in or out:
/// the invariant `FuzzCookieFile` checks (issue 33).
@Suite struct CookieFileRoundTripTests {
    static let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

    /// Every text field as bytes, the way the file stores them.
    static func fields(_ cookie: Cookie) -> [[UInt8]] {
        [cookie.name, cookie.value, cookie.spelledDomain, cookie.path].map { Array($0.utf8) }
    }

    static func parse(_ bytes: [UInt8]) -> NetscapeCookieFile.Contents {
        NetscapeCookieFile.parse(bytes, loadedAt: now)
    }

    /// Reads, writes and reads again, as `FuzzCookieFile` does, and checks the two reads agree byte for byte.
    static func expectLossless(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let first = parse(bytes)
        let again = parse(Array(NetscapeCookieFile.format(first.cookies).utf8))
        #expect(again.malformedLines.isEmpty, sourceLocation: sourceLocation)
        #expect(again.cookies.map(fields) == first.cookies.map(fields), sourceLocation: sourceLocation)
        #expect(again.cookies.map(NetscapeCookieFile.line(for:)) == first.cookies.map(NetscapeCookieFile.line(for:)),
                sourceLocation: sourceLocation)
    }

    /// The input `scripts/fuzz.sh` found (`Fuzz/Corpus/FuzzCookieFile/combining-mark-domain`, after 48,258
    /// executions): a domain that starts with U+031A (bytes CC 9A), then two bytes that are not UTF-8, on a line
    /// whose cookie matches subdomains. The cookie was written as `.` + U+031A…, where the dot and the mark are one
    /// Character, so it read back with the dot inside its domain and was written again as `..` + U+031A….
    @Test func theFuzzFindingIsRefusedNotChanged() {
        let finding: [UInt8] = [0xCC, 0x9A, 0x87, 0x9E] + Array("mple.com\tTRUE\t/\tFALSE\t1895494547\tnaO".utf8)
        let contents = Self.parse(finding)
        #expect(contents.cookies.isEmpty)
        #expect(contents.malformedLines == [1])
        Self.expectLossless(finding)
        // The mark alone (valid UTF-8) breaks the round trip in the same way: refused where a dot is written.
        let mark: [UInt8] = [0xCC, 0x81] + Array("x\tTRUE\t/\tFALSE\t0\tn\tv\n".utf8)
        #expect(Self.parse(mark).malformedLines == [1])
        Self.expectLossless(mark)
        // On a host-only line no dot is written, so the same domain reads back unchanged and is kept.
        let hostOnly: [UInt8] = [0xCC, 0x81] + Array("x\tFALSE\t/\tFALSE\t0\tn\tv\n".utf8)
        #expect(Self.parse(hostOnly).cookies.map { Array($0.spelledDomain.utf8) } == [[0xCC, 0x81, 0x78]])
        Self.expectLossless(hostOnly)
    }

    /// Bytes that are not UTF-8 were replaced by U+FFFD, so the file a store wrote back held other bytes than the
    /// one it read. Such a line is now malformed, in every text field.
    @Test func bytesThatAreNotUTF8AreRefusedNotReplaced() {
        let lines: [[UInt8]] = [
            Array("www.example.com\tFALSE\t/\tFALSE\t0\tname\tv".utf8) + [0xFF, 0xFE, 0xC3, 0x28],
            Array("www.example.com\tFALSE\t/\tFALSE\t0\tn".utf8) + [0xE9] + Array("\tlatin-1 name".utf8),
            Array("www.example.com\tFALSE\t/p".utf8) + [0x80] + Array("\tFALSE\t0\tpath\tv".utf8),
            Array("#HttpOnly_www.".utf8) + [0xC0, 0xAF] + Array(".com\tFALSE\t/\tFALSE\t0\tdomain\tv".utf8),
            Array("www.example.com\tFALSE\t/\tFALSE\t0\tsurrogate\t".utf8) + [0xED, 0xA0, 0x80],
            Array("www.example.com\tFALSE\t/\tFALSE\t0\ttruncated\t".utf8) + [0xF0, 0x9F, 0x98],
        ]
        let file = lines.joined(separator: [0x0A]) + Array("\nwww.example.com\tFALSE\t/\tFALSE\t0\tok\té🍪\n".utf8)
        let contents = Self.parse(Array(file))
        #expect(contents.malformedLines == Array(1...6))
        #expect(contents.cookies.map(\.name) == ["ok"])
        #expect(contents.cookies.first.map { Array($0.value.utf8) } == Array("é🍪".utf8))
        Self.expectLossless(Array(file))
    }

    /// A control character in any field (CR, NUL, DEL, ^A) refuses the line; before, only the name and the value
    /// were checked, and a CR at the end of a path or domain was one a CRLF file could not keep.
    @Test func controlCharactersInAnyFieldAreRefused() {
        let lines = [
            "www.example.com\tFALSE\t/\tFALSE\t0\tn\ta\u{1}b",
            "www.example.com\tFALSE\t/\tFALSE\t0\tn\u{7F}\tv",
            "www.example.com\tFALSE\t/a\u{0}b\tFALSE\t0\tpath-nul\tv",
            "www.exa\rmple.com\tFALSE\t/\tFALSE\t0\tdomain-cr\tv",
            "#HttpOnly_www.example.com\u{1B}\tFALSE\t/\tFALSE\t0\tdomain-esc\tv",
        ]
        let contents = Self.parse(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        #expect(contents.malformedLines == [1, 2, 3, 4, 5])
        #expect(contents.cookies.isEmpty)
    }

    /// A cookie whose line would not read back as itself is left out of the file: a tab or newline would add
    /// fields or lines (a value could smuggle in a cookie for another domain), `#` starts a comment.
    @Test func cookiesTheFormatCannotHoldAreNotWritten() {
        func cookie(_ name: String, _ value: String = "v", domain: String = "www.example.com", hostOnly: Bool = true,
                    path: String = "/", httpOnly: Bool = false) -> Cookie {
            Cookie(name: name, value: value, domain: domain, isHostOnly: hostOnly, path: path, isHTTPOnly: httpOnly,
                   created: Self.now)
        }
        let refused = [
            cookie("smuggler", "x\n.evil.example\tTRUE\t/\tFALSE\t0\tinjected\tgotcha"),
            cookie("tab", "a\tb"),
            cookie("crlf", "a\r\nb"),
            cookie("nul", "a\u{0}b"),
            cookie("tab\tname"),
            cookie(""),
            cookie("path", path: "/a\nb"),
            cookie("relative", path: "no-slash"),
            cookie("domain-tab", domain: "www.example.com\tTRUE"),
            cookie("comment", domain: "#example.com"),
            cookie("mark", domain: "\u{301}example.com", hostOnly: false),
            cookie("empty-domain", domain: ""),
        ]
        let kept = [
            cookie("plain"),
            cookie("spaces", " leading and trailing "),
            cookie("#hash", "a;b,c\"d\\e"),
            cookie("unicode-é", "🍪 ünïcödé"),
            cookie("hidden-hash", domain: "#example.com", httpOnly: true),
            cookie("mark-host-only", domain: "\u{301}example.com"),
            cookie("long-path", path: "/" + String(repeating: "p", count: 1 << 20)),
            cookie("wide", domain: ".Example.COM", hostOnly: false),
        ]
        for cookie in refused { #expect(!NetscapeCookieFile.canWrite(cookie), "\(cookie.name)") }
        for cookie in kept { #expect(NetscapeCookieFile.canWrite(cookie), "\(cookie.name)") }
        let text = NetscapeCookieFile.format(refused + kept)
        let contents = Self.parse(Array(text.utf8))
        #expect(contents.malformedLines.isEmpty)
        #expect(contents.cookies.map(\.name) == kept.map(\.name))
        let sameBytes = contents.cookies.map(Self.fields) == kept.map(Self.fields)  // not printed: a 1 MiB path
        #expect(sameBytes)
        #expect(!text.contains("injected") && !text.contains("evil"))
    }

    /// Lines curl writes, and the hostile ones above, survive any number of rounds.
    @Test func writingWhatWasReadIsAFixedPoint() {
        let file = Array("""
            # Netscape HTTP Cookie File
            .example.com\tTRUE\t/\tFALSE\t2147483647\tname\tvalue
            #HttpOnly_www.example.com\tFALSE\t/path\tTRUE\t0\tsession\tabc
            host.example\tfalse\t/\tfalse\t+1700000000\tempty
            ..double.example\tTRUE\t/\tFALSE\t1\tdots\t
            #HttpOnly_#odd\tFALSE\t/\tFALSE\t0\thash\t#
            www.example.com\tFALSE\t/\tFALSE\t9223372036854775807\tforever\t ✓\u{20}

            """.utf8)
        let first = Self.parse(file)
        #expect(first.malformedLines.isEmpty)
        #expect(first.cookies.count == 6)
        var text = NetscapeCookieFile.format(first.cookies)
        for _ in 0..<3 {
            let again = NetscapeCookieFile.format(Self.parse(Array(text.utf8)).cookies)
            #expect(Array(again.utf8) == Array(text.utf8))
            text = again
        }
    }
}
