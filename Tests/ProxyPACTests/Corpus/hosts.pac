// Host-name functions: isPlainHostName, dnsDomainIs, localHostOrDomainIs, dnsDomainLevels, shExpMatch.
function FindProxyForURL(url, host) {
    var facts = [
        isPlainHostName(host), isPlainHostName("www"), isPlainHostName("a.b"),
        dnsDomainIs(host, ".example.com"), dnsDomainIs("example.com", ".example.com"), dnsDomainIs("", ""),
        localHostOrDomainIs(host, "www.example.com"), localHostOrDomainIs("www", "www.example.com"),
        localHostOrDomainIs("www.other.com", "www.example.com"), localHostOrDomainIs("www.example", "www.example.com"),
        dnsDomainLevels(host), dnsDomainLevels("a"), dnsDomainLevels("a.b.c.d"), dnsDomainLevels(""),
        shExpMatch(url, "*/secret/*"), shExpMatch(host, "*.example.*"), shExpMatch(host, "w?w.*"),
        shExpMatch("a.b", "a?b"), shExpMatch("axb", "a.b"), shExpMatch("", "*"), shExpMatch("abc", "[ab]bc"),
        shExpMatch("http://x/a+b", "*a+b"), shExpMatch("ABC", "abc")
    ];
    if (isPlainHostName(host)) return "DIRECT";
    if (dnsDomainIs(host, ".internal.example.com")) return "DIRECT";
    if (shExpMatch(url, "*/via-proxy/*")) return "PROXY proxy.example.com:3128; DIRECT";
    return "PROXY p1.example:8080; SOCKS5 s.example:1080; DIRECT /* " + facts.join(",") + " */";
}
