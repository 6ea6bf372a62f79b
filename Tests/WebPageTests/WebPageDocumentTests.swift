import FoundationEssentials
import Testing

@testable import WebPage

/// The tokenizer, the finder and the CSS scanner on byte inputs.
struct WebPageDocumentTests {
    private func texts(_ html: String, _ kind: WebPageReference.Kind? = nil) -> [String] {
        WebPageDocument(html: Array(html.utf8)).references.filter { kind == nil || $0.kind == kind }.map(\.text)
    }

    @Test func findsEveryElementAndAttributeOfTheIssue() {
        let html = """
            <link rel="stylesheet" href="s.css"><link rel="shortcut icon" href="i.ico">
            <link rel=preload as=image href=p.png imagesrcset="p1.png 1x, p2.png 2x">
            <link rel=preload as=style href=p.css>
            <link rel=preload as=script href=no.js><link rel=alternate href=alt.html>
            <img src=a.png srcset="b.png 1x,c.png 2x" data-src=d.png data-srcset="e.png 100w">
            <picture><source src=f.webm srcset=g.png></picture><video poster=h.png src=i.webm></video>
            <audio src=j.mp3></audio><track src=k.vtt><embed src=l.swf><object data=m.svg></object>
            <input type=IMAGE src=n.png><input type=text src=no.png><script src=o.js></script>
            <frame src=q.html><iframe src=r.html></iframe><body background=s.png><td background=t.png>
            <svg><image href=u.png /><use xlink:href="v.svg#x"/></svg><a href=w.html>w</a><form action=x.cgi>
            <div style="background:url(y.png)"></div>
            """
        let document = WebPageDocument(html: Array(html.utf8))
        let fetched = document.references.filter(\.isFetched).map(\.text)
        #expect(
            fetched == [
                "s.css", "i.ico", "p.png", "p1.png", "p2.png", "p.css", "a.png", "b.png", "c.png", "d.png", "e.png",
                "f.webm", "g.png", "h.png", "i.webm", "j.mp3", "k.vtt", "l.swf", "m.svg", "n.png", "o.js", "q.html",
                "r.html", "s.png", "t.png", "u.png", "v.svg#x", "y.png",
            ])
        #expect(
            document.references.filter { $0.kind == .link }.map(\.text) == ["no.js", "alt.html", "w.html", "x.cgi"])
        #expect(document.references.filter(\.isDocument).map(\.text) == ["s.css", "p.css", "q.html", "r.html"])
    }

    @Test func skipsScriptsCommentsAndRawText() {
        let html = """
            <script>var a = "<img src='no1.png'>"; // </scripty> still script
            </script><img src=yes1.png><!-- <img src=no2.png> --><!--><img src=yes2.png>
            <textarea><img src=no3.png></textarea><title><img src=no4.png></title>
            <noscript><img src=yes3.png></noscript><![CDATA[<img src=no5.png>]]><img src=yes4.png>
            <xmp><img src=no6.png></xmp></p foo="<img src=no7.png>"><img src=yes5.png><plaintext><img src=no8.png>
            """
        #expect(texts(html) == ["yes1.png", "yes2.png", "yes3.png", "yes4.png", "yes5.png"])
    }

    @Test func svgAndMathMLContentHasNoRawText() {
        let html = """
            <svg><style>a{background:url(s.png)}<a href=inner.html></style><title><img src=t.png></title>\
            <![CDATA[<img src=no.png>]]><image href=i.png /></svg><textarea><img src=no2.png></textarea>\
            <math><script><img src=m.png></script></math><p><svg><div><img src=out.png>
            """
        #expect(texts(html) == ["s.png", "inner.html", "t.png", "i.png", "m.png", "out.png"])
        let document = WebPageDocument(html: Array(html.utf8))
        let out = document.rewritten(removingBase: false) { _ in "x" }
        #expect(WebPageDocument(html: out).references.count == document.references.count)
    }

    @Test func decodesCharacterReferencesInValues() {
        let html = #"<img src="a.png?x=1&amp;y=2&#38;z=&#x33;&copy=4&lt"><img src='q&quot;.png'>"#
        #expect(texts(html) == ["a.png?x=1&y=2&z=3&copy=4<", "q\".png"])
    }

    @Test func srcsetCandidatesFollowTheStandard() {
        let value = Array("  a.png 1x,b,c.png, d.png  (x, y) 2x ,, e.png".utf8)
        let ranges = SrcsetParser.urlRanges(in: value)
        #expect(ranges.map { String(decoding: value[$0], as: UTF8.self) } == ["a.png", "b,c.png", "d.png", "e.png"])
    }

    @Test func cssFindsThreeQuotingStylesAndBothImports() {
        let css = """
            @import "a.css"; @IMPORT url('b.css') screen; @import url(c.css);
            /* url(no.png) @import "no.css"; */
            x { background: url(d.png), URL( "e.png" ) , url('f\\'.png'); content: "url(no2.png)" }
            y { background: myurl(no3.png); src: url(g\\2e png) }
            z { background: url(bad url.png); background: url("unclosed.png }
            """
        let document = WebPageDocument(css: Array(css.utf8))
        #expect(document.references.map(\.text) == ["a.css", "b.css", "c.css", "d.png", "e.png", "f'.png", "g.png"])
        #expect(
            document.references.map(\.kind) == [.stylesheet, .stylesheet, .stylesheet]
                + Array(repeating: .cssResource, count: 4))
    }

    @Test func rewritesOnlyTheChangedValuesAndRemovesBase() {
        let html = """
            <HTML><base href="http://x/"><IMG SRC=a.png ALT=x><img src='b.png' srcset="b.png 1x, c.png 2x">\
            <p style='background:url(d.png)'>é</p><style>q{background:url( "e.png" )}</style><a href="#f">f</a>
            """
        let document = WebPageDocument(html: Array(html.utf8))
        let out = document.rewritten { reference in
            reference.text.hasSuffix("png") ? "L/" + reference.text.uppercased() + "&\"" : nil
        }
        let expected = """
            <HTML><IMG SRC="L/A.PNG&amp;&quot;" ALT=x><img src='L/B.PNG&amp;"' srcset="L/B.PNG&amp;&quot; 1x, \
            L/C.PNG&amp;&quot; 2x"><p style='background:url("L/D.PNG&amp;\\"")'>é</p>\
            <style>q{background:url( "L/E.PNG&\\"" )}</style><a href="#f">f</a>
            """
        #expect(String(decoding: out, as: UTF8.self) == expected)
        #expect(document.rewritten(removingBase: false) { _ in nil } == Array(html.utf8))
    }

    @Test func nonUTF8PagesKeepTheirBytesAndReadURLsInTheirCharset() {
        let page: [UInt8] =
            Array("<meta charset=windows-1252><p>\u{0}".utf8) + [0xFC, 0x80] + Array("<img src=\"caf".utf8) + [0xE9]
            + Array(".png\" alt=\"".utf8) + [0xE9] + Array("\">".utf8)
        let document = WebPageDocument(html: page)
        #expect(document.charset == .windows1252)
        #expect(document.references.map(\.text) == ["café.png"])
        guard case .http(let url, nil) = WebPageURL.resolve("café.png", against: URL(string: "http://h/d/")!) else {
            Issue.record("not resolved")
            return
        }
        #expect(url.absoluteString == "http://h/d/caf%C3%A9.png")
        let out = document.rewritten { _ in "x/caf\u{E9}\u{20AC}.png" }
        let expected: [UInt8] =
            Array("<meta charset=windows-1252><p>\u{0}".utf8) + [0xFC, 0x80]
            + Array("<img src=\"x/caf&#233;&#8364;.png".utf8)
            + Array("\" alt=\"".utf8) + [0xE9] + Array("\">".utf8)
        #expect(out == expected)
    }

    @Test func resolvesLikeABrowser() {
        let base = URL(string: "http://h:8/a/b/c.html?q")!
        func resolved(_ text: String) -> String? {
            guard case .http(let url, let fragment) = WebPageURL.resolve(text, against: base) else { return nil }
            return WebPageURL.text(url, fragment: fragment)
        }
        #expect(resolved(" ../x y.png\n") == "http://h:8/a/x%20y.png")
        #expect(resolved("//cdn:9/z.png#f g") == "http://cdn:9/z.png#f%20g")
        #expect(resolved("\\root.png") == "http://h:8/root.png")
        #expect(resolved("HTTPS://H/x") == "https://h/x" || resolved("HTTPS://H/x") == "HTTPS://H/x")
        for untouched in [
            "#top", "", "  ", "data:image/png;base64,AA", "mailto:a@b", "javascript:void(0)", "ftp://h/x",
        ] {
            #expect(resolved(untouched) == nil)
        }
    }

    @Test func hostileInputNeverCrashesAndStaysLinear() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("<>/=\"' \n!-?abcimgsrcstyleurl()@import;&#x".utf8)
        for _ in 0..<300 {
            let length = Int.random(in: 0..<400, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let document = WebPageDocument(html: bytes)
            #expect(document.rewritten { _ in "x" }.count >= 0)
            _ = WebPageDocument(css: bytes).rewritten { _ in "y" }
        }
        let deep = Array(String(repeating: "<div a='", count: 20_000).utf8)
        #expect(WebPageDocument(html: deep).references.isEmpty)
        let manyURLs = Array(String(repeating: "url(", count: 50_000).utf8)
        #expect(WebPageDocument(css: manyURLs).references.isEmpty)
    }

    @Test func localNamesAreUniqueSafeAndRelative() {
        var names = WebPageLocalNames(reserved: ["index.html"])
        let a = names.assign(URL(string: "http://H:8080/img/a%20b.png?v=1")!, kind: .image)
        let b = names.assign(URL(string: "http://h:8080/img/a%20b.png?v=2")!, kind: .image)
        let c = names.assign(URL(string: "https://cdn/x/")!, kind: .frame)
        #expect(names.assign(URL(string: "https://cdn/../%2E%2E/y")!, kind: .image) == "cdn/_/_/y")
        let d = names.assign(URL(string: "http://h:8080/img")!, kind: .image)
        let e = names.assign(URL(string: "http://h:8080/css/site")!, kind: .stylesheet)
        #expect(a.hasPrefix("h_8080/img/a_b_") && a.hasSuffix(".png"))
        #expect(a != b)
        #expect(c == "cdn/x/index.html")
        #expect(d == "h_8080/img-2")
        #expect(e == "h_8080/css/site.css")
        #expect(WebPageLocalNames.relativeReference(from: "index.html", to: c) == "cdn/x/index.html")
        #expect(WebPageLocalNames.relativeReference(from: "h_8080/css/site.css", to: a).hasPrefix("../img/a_b_"))
        #expect(WebPageLocalNames.relativeReference(from: c, to: "index.html") == "../../index.html")
    }
}
