// Fuzzes the WebPage plug-in's HTML tokenizer, reference finder, CSS scanner and in-place rewriter.
//
// Invariants, for the input read as HTML and as CSS: scanning never fails; a rewrite that replaces nothing gives
// the input back byte for byte; a rewrite that replaces every reference with "x" is at most 8 times as long plus 3
// bytes per reference (a changed value is written back whole: quotes for an unquoted one, `&amp;`, `&quot;`, and a
// numeric reference for each character outside ASCII in a page that is not UTF-8) and, read again, has exactly as
// many references (a changed value never changes what is markup around it).
import FuzzSupport
import WebPage

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    for document in [WebPageDocument(html: input.bytes), WebPageDocument(css: input.bytes)] {
        fuzzCheck(document.rewritten(removingBase: false) { _ in nil } == input.bytes, "an empty rewrite changed bytes")
        let rewritten = document.rewritten(removingBase: false) { _ in "x" }
        fuzzCheck(
            rewritten.count <= 8 * input.bytes.count + 3 * document.references.count, "the rewrite grew too much")
        let again =
            document.format == .html
            ? WebPageDocument(html: rewritten, charset: document.charset)
            : WebPageDocument(css: rewritten, charset: document.charset)
        fuzzCheck(again.references.count == document.references.count, "the rewrite changed the markup around it")
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
