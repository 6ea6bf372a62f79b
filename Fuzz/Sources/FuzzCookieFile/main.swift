// Fuzzes the Netscape cookie-file parser (CookieFile).
//
// Invariants: malformed line numbers are ascending and within the file; every parsed cookie survives a
// write-and-read round trip unchanged.
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
    let lines = contents.cookies.map(NetscapeCookieFile.line(for:))
    let again = NetscapeCookieFile.parse(Array(NetscapeCookieFile.format(contents.cookies).utf8), loadedAt: now)
    fuzzCheck(again.malformedLines.isEmpty, "a written file has malformed lines: \(again.malformedLines)")
    fuzzCheck(
        again.cookies.map(NetscapeCookieFile.line(for:)).sorted() == lines.sorted(),
        "cookies changed in a write-and-read round trip")
    return 0
}

runLibFuzzer { fuzz($0, $1) }
