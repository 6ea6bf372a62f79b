/// The fixture site of the WebPage tests (issue 29), served by ``WebPageNginxPeer``: a page host and a "CDN"
/// host, redirects, `<base>`, `srcset`, lazy images, nested and cyclic frames and imports, a 404, a non-UTF-8 page
/// with a non-ASCII resource name, and hostile markup. `{CDN}` in a file is replaced by the CDN's origin.
package enum WebPageSite {
    /// The main page, served at `/pages/start.html` (and reached through `/start`, a 301 to it). Its `<base>`
    /// points at `/site/`.
    package static let startPage = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8">
        <base href="/site/">
        <title>Fixture &amp; test</title>
        <link rel="stylesheet" href="css/main.css">
        <link rel=icon href='favicon.png'>
        <link rel="preload" as="image" href="img/preload.png">
        <style>@import 'css/imported.css'; body { background: url(img/bg.png) }</style>
        <script src="js/app.js"></script>
        <script>var s = "<img src='img/never.png'>"; document.write('url(img/never2.png)');</script>
        </head>
        <body background="img/body.png">
        <img src="img/a.png" srcset="img/a-1x.png 1x, img/a-2x.png 2x" alt="a">
        <img data-src="img/lazy.png" src="img/placeholder.png">
        <picture><source srcset="{CDN}/img/wide.png 800w, {CDN}/img/narrow.png 400w">\
        <img src="{CDN}/img/cdn.png"></picture>
        <video poster="img/poster.png"><source src="media/clip.webm"></video>
        <input type=image src=img/button.png>
        <object data="img/object.svg"></object><embed src="img/embed.svg">
        <svg><use href="img/sprite.svg#icon"></use><image xlink:href="img/svgimage.png"/></svg>
        <div style="background-image: url(&quot;img/styleattr.png&quot;)">styled</div>
        <noscript><img src="img/noscript.png"></noscript>
        <iframe src="frames/frame.html"></iframe>
        <iframe src="/pages/start.html"></iframe>
        <img src="img/missing.png">
        <img src="/redirect-img">
        <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <a href="other.html?a=1&amp;b=2">a link</a> <a href="#top">top</a> <a href="mailto:x@example.com">mail</a>
        <!-- <img src="img/commented.png"> -->
        </body></html>

        """

    /// The files of the page host, by path.
    package static let pageFiles: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [
            "pages/start.html": Array(startPage.utf8),
            "site/css/main.css": Array(
                ("@import url(\"nested.css\");\nbody { background: url('../img/css-bg.png') }\n"
                    + "@font-face { font-family: f; src: url(../fonts/f.woff) }\n").utf8),
            "site/css/nested.css": Array("@import \"main.css\";\n.x { background: url(../img/nested.png) }\n".utf8),
            "site/css/imported.css": Array(".y { background: url(\"../img/imported.png\") }\n".utf8),
            "site/frames/frame.html": Array(
                "<html><body><img src=\"../img/inframe.png\"><iframe src=\"deeper.html\"></iframe></body></html>\n".utf8
            ),
            "site/frames/deeper.html": Array(
                "<html><body><img src=\"../img/deeper.png\"><iframe src=\"frame.html\"></iframe></body></html>\n".utf8),
            "latin/page.html": Array("<html><head><title>Gr".utf8) + [0xFC, 0xDF]
                + Array("e</title></head><body><p>caf".utf8)
                + [0xE9] + Array("</p><img src=\"caf".utf8) + [0xE9]
                + Array(".png\"><img src=\"a%20b.png\"></body></html>\n".utf8),
            "hostile/page.html": Array(hostilePage.utf8),
            "samehost/page.html": Array(#"<img src="/to-cdn.png"><img src="/site/img/a.png">"#.utf8),
        ]
        for name in [
            "favicon.png", "img/preload.png", "img/bg.png", "img/body.png", "img/a.png", "img/a-1x.png", "img/a-2x.png",
            "img/lazy.png", "img/placeholder.png", "img/poster.png", "img/button.png", "img/object.svg",
            "img/embed.svg",
            "img/sprite.svg", "img/svgimage.png", "img/styleattr.png", "img/noscript.png", "img/css-bg.png",
            "img/nested.png", "img/imported.png", "img/inframe.png", "img/deeper.png", "img/redirected.png",
            "media/clip.webm", "js/app.js", "fonts/f.woff",
        ] {
            files["site/" + name] = resource(name)
        }
        files["latin/café.png"] = resource("latin/café.png")
        files["latin/a b.png"] = resource("latin/a b.png")
        files["hostile/ok.png"] = resource("hostile/ok.png")
        return files
    }()

    /// The files of the CDN host.
    package static let cdnFiles: [String: [UInt8]] = [
        "img/wide.png": resource("cdn/wide.png"), "img/narrow.png": resource("cdn/narrow.png"),
        "img/cdn.png": resource("cdn/cdn.png"),
    ]

    /// A resource's bytes: its name and every byte value, so a text conversion anywhere would show.
    package static func resource(_ name: String) -> [UInt8] {
        Array("resource \(name)\n".utf8) + (0...255).map { UInt8($0) }
    }

    /// Broken and hostile markup: unclosed comments and quotes, a `</script` inside a string, attributes without
    /// values, a stray `<`, an unclosed `url(`, and a tag cut off by the end of the file.
    package static let hostilePage = """
        <html><body>
        <img src=ok.png alt=<<>> ="weird" / >
        <script>if (a </scr + "ipt>") { x = "<img src='nope.png'>" }</script>
        <p a b c d=e f='g' h="i"<img src="ok.png">
        < img src="nope2.png"> <3 <!-->
        <style>div { background: url(ok.png) } p { background: url( "ok.png ) }</style>
        <img src="ok.png"><img src="ok.png" src="nope3.png">
        <!-- unclosed comment <img src="nope4.png">
        """
}
