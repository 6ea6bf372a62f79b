// Fuzzes the Netscape cookie-file parser (CookieFile).
//
// Invariants: malformed line numbers are ascending and within the file; every parsed cookie is written and
// survives a write-and-read round trip unchanged, byte for byte (String's == would let canonically equivalent
// text pass). The same bytes, cut at 0xFF into a name, value, domain and path, make a cookie that is written
// alone: the file reads back as exactly that cookie when `canWrite` accepts it, and as no cookie otherwise.
import FoundationEssentials
import FuzzSupport
import CookieFile
import HTTPCore

let now = Date(timeIntervalSinceReferenceDate: 800_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let contents = NetscapeCookieFile.parse(input.bytes, loadedAt: now)
    let lineCount = input.bytes.count { $0 == 0x0A } + 1
    fuzzCheck(contents.malformedLines == contents.malformedLines.sorted(), "malformed lines out of order")
    fuzzCheck(contents.malformedLines.allSatisfy { (1...lineCount).contains($0) }, "malformed line out of range")
    fuzzCheck(contents.cookies.count + contents.malformedLines.count <= lineCount, "more results than lines")
    fuzzCheck(contents.cookies.allSatisfy(NetscapeCookieFile.canWrite), "a parsed cookie cannot be written")
    let lines = contents.cookies.map { Array(NetscapeCookieFile.line(for: $0).utf8) }
    let again = NetscapeCookieFile.parse(Array(NetscapeCookieFile.format(contents.cookies).utf8), loadedAt: now)
    fuzzCheck(again.malformedLines.isEmpty, "a written file has malformed lines: \(again.malformedLines)")
    fuzzCheck(
        again.cookies.map { Array(NetscapeCookieFile.line(for: $0).utf8) } == lines,
        "cookies changed in a write-and-read round trip")
    checkWriting(input.bytes)
    return 0
}

func checkWriting(_ bytes: [UInt8]) {
    let parts = bytes.split(separator: 0xFF, maxSplits: 4, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    guard parts.count >= 4 else { return }
    let flags = bytes.first ?? 0
    let cookie = Cookie(
        name: parts[0], value: parts[1], domain: parts[2], isHostOnly: flags & 1 == 0, path: parts[3],
        isSecure: flags & 2 != 0, isHTTPOnly: flags & 4 != 0, created: now)
    let file = NetscapeCookieFile.parse(Array(NetscapeCookieFile.format([cookie]).utf8), loadedAt: now)
    fuzzCheck(file.malformedLines.isEmpty, "a written cookie reads back as a malformed line")
    let expected = NetscapeCookieFile.canWrite(cookie) ? [Array(NetscapeCookieFile.line(for: cookie).utf8)] : []
    fuzzCheck(
        file.cookies.map { Array(NetscapeCookieFile.line(for: $0).utf8) } == expected,
        "a written cookie does not read back as itself")
}

runLibFuzzer { fuzz($0, $1) }
