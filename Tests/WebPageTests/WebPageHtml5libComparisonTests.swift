import FoundationEssentials
import TestSupport
import Testing

@testable import WebPage

/// The tokenizer against html5lib (Python, the reference implementation of the HTML standard's parser with
/// scripting off, as a saved page is read): for tricky cases from html5lib's tokenizer tests and 10,000 generated
/// inputs (markup fragments, comments, CDATA, raw text elements, SVG and MathML), both must find the same non-empty attribute values, byte for byte after decoding, for every
/// attribute the finder reads (an empty value is no reference). Skipped when python3 has no html5lib (`scripts/install-dependencies.sh` installs it).
@Suite(
    "WebPage: the tokenizer agrees with html5lib",
    .enabled(if: ChildProcess.find("python3") != nil && html5libInstalled))
struct WebPageHtml5libComparisonTests {
    static let attributes: Set<String> = [
        "src", "href", "srcset", "data-src", "data-srcset", "poster", "data", "background", "style", "action",
        "xlink:href",
    ]

    /// Cases from html5lib-tests' tokenizer and tree-construction files that decide where values are.
    static let cases = [
        "<img src=a.png>", "<img src='a.png'>", #"<img src="a.png">"#, "<img src = a.png >", "<img src=a.png/>",
        "<img src=a/b.png/>", "<img =src=a.png>", "<img src=a.png src=b.png>", "<IMG SRC=A.PNG>",
        "<img src=\"a.png\"src=b.png>", "<img src=a.png alt=<<>>", "<img\nsrc\n=\na.png>", "<img src=a&amp;b>",
        "<img src='&#x41;&#66;&#0;'>", "<img src=\"a&quot;b\">", "<img src=a&ampb>", "<img src=\"a&amp=b\">",
        "<!--<img src=no.png>--><img src=yes.png>", "<!--><img src=yes.png>", "<!---><img src=yes.png>",
        "<!-- --!><img src=yes.png>", "<!DOCTYPE html><img src=yes.png>", "<?xml ?><img src=yes.png>",
        "</img src=no.png><img src=yes.png>", "</ img src=no.png><img src=yes.png>", "<3<img src=yes.png>",
        "<textarea><img src=no.png></textarea><img src=yes.png>", "<title><img src=no.png></TITLE ><img src=yes.png>",
        "<style>p{}</style ><img src=yes.png>", "<script>a='</scrip'</script><img src=yes.png>",
        "<xmp><img src=no.png></xmp><img src=yes.png>", "<iframe><img src=no.png></iframe><img src=yes.png>",
        "<noscript><img src=yes.png></noscript>", "<img src=a.png", "<img src=\"a.png", "<a href=x.html>x</a>",
        "<svg><image xlink:href=a.png /><use href=b.svg#i /></svg>", "<div style='background:url(a.png)'></div>",
        "<video poster=p.png src=v.webm></video>", "<object data=o.svg></object>", "<table background=t.png>",
        "<form action=f.cgi>", "<img data-src=l.png srcset='a.png 1x, b.png 2x'>",
    ]

    /// A deterministic generator of inputs made of markup fragments.
    static func generated(count: Int) -> [String] {
        let pieces = [
            "<", ">", "/", "=", "\"", "'", " ", "\n", "!", "-", "?", "img", "a", "src", "href", "x.png", "style",
            "<!--", "-->", "</", "&amp;", "&#65;", "&quot;", "url(", ")", "textarea", "title", "xmp", "noscript",
            "iframe", "srcset", "1x,", "<img ", "<a ", " src=", " href=", "video", "poster", "<![CDATA[", "]]>",
            "<script>",
            "</script>", "<style>", "plaintext", "<svg>", "<math>", "&lt", "\t",
        ]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        return (0..<count).map { _ in (0..<(next() % 40)).map { _ in pieces[next() % pieces.count] }.joined() }
    }

    /// The values of the compared attributes, as `name=value` lines, in the order the tokenizer finds them.
    static func ours(_ html: String) -> [String] {
        let bytes = Array(html.utf8)
        var found: [String] = []
        for case .startTag(let tag) in HTMLTokenizer(bytes).tokens() where tag.name != "frame" && tag.name != "body" {
            for attribute in tag.attributes where attributes.contains(attribute.name) {
                let value = HTMLEntities.decode(WebPageCharset.utf8.decode(bytes[attribute.valueRange]))
                if !value.isEmpty { found.append(attribute.name + "=" + value) }
            }
        }
        return found.sorted()
    }

    static let script = """
        import html5lib, json, sys
        names = set(sys.argv[1].split(","))
        out = []
        for text in json.load(sys.stdin):
            doc = html5lib.HTMLParser(namespaceHTMLElements=False).parse(text, scripting=False)
            found = []
            for element in doc.iter():
                tag = element.tag if isinstance(element.tag, str) else ""
                if tag.split("}")[-1] in ("frame", "body"): continue
                for key, value in element.attrib.items():
                    name = key.replace("{http://www.w3.org/1999/xlink}", "xlink:")
                    if name in names and value: found.append(name + "=" + value)
            out.append(sorted(found))
        json.dump(out, sys.stdout)
        """

    @Test func bothFindTheSameValues() throws {
        let inputs = Self.cases + Self.generated(count: 10000)
        let directory = try makeTemporaryDirectory(prefix: "asikit-html5lib")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try JSONEncoder().encode(inputs).write(to: URL(filePath: directory + "/in.json"))
        try Data(Self.script.utf8).write(to: URL(filePath: directory + "/compare.py"))
        let status = try ChildProcess.run(
            "/bin/sh",
            [
                "-c",
                "python3 \(directory)/compare.py \(Self.attributes.sorted().joined(separator: ",")) "
                    + "< \(directory)/in.json > \(directory)/out.json",
            ],
            logPath: directory + "/log.txt")
        #expect(status == 0)
        let theirs = try JSONDecoder().decode(
            [[String]].self, from: Data(contentsOf: URL(filePath: directory + "/out.json")))
        var mismatches: [String] = []
        for (input, expected) in zip(inputs, theirs) where Self.ours(input) != expected {
            mismatches.append("\(input.debugDescription): ours \(Self.ours(input)), html5lib \(expected)")
        }
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) of \(inputs.count):\n\(mismatches.prefix(15).joined(separator: "\n"))")
    }
}

/// Whether python3 can import html5lib.
let html5libInstalled: Bool = {
    guard let python = ChildProcess.find("python3") else { return false }
    let log = FileManager.default.temporaryDirectory.path(percentEncoded: false) + "/asikit-html5lib-probe.log"
    defer { try? FileManager.default.removeItem(atPath: log) }
    return (try? ChildProcess.run(python, ["-c", "import html5lib"], logPath: log)) == 0
}()
