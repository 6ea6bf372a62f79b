// A corporate PAC file with 50 rules: bypass lists, networks, per-domain proxies, schemes and ports.
// No DNS lookups (isInNet on literal addresses only), so that the figure is the evaluator's own.
var PRIMARY = "PROXY proxy1.example.net:8080; PROXY proxy2.example.net:8080; DIRECT";
var SECURE = "HTTPS secure-proxy.example.net:443; " + PRIMARY;
var SOCKS = "SOCKS5 socks.example.net:1080; DIRECT";
function FindProxyForURL(url, host) {
    host = host.toLowerCase();
    var literal = /^\d+\.\d+\.\d+\.\d+$/.test(host);
    if (isPlainHostName(host)) return "DIRECT";                                   // 1
    if (localHostOrDomainIs(host, "localhost.localdomain")) return "DIRECT";       // 2
    if (dnsDomainIs(host, ".corp.example.com")) return "DIRECT";                              // 3
    if (dnsDomainIs(host, ".intranet.example.com")) return "DIRECT";                          // 4
    if (dnsDomainIs(host, ".lab.example.com")) return "DIRECT";                               // 5
    if (dnsDomainIs(host, ".dev.example.com")) return "DIRECT";                               // 6
    if (dnsDomainIs(host, ".staging.example.com")) return "DIRECT";                           // 7
    if (dnsDomainIs(host, ".hr.example.com")) return "DIRECT";                                // 8
    if (dnsDomainIs(host, ".finance.example.com")) return "DIRECT";                           // 9
    if (dnsDomainIs(host, ".wiki.example.com")) return "DIRECT";                              // 10
    if (dnsDomainIs(host, ".git.example.com")) return "DIRECT";                               // 11
    if (dnsDomainIs(host, ".ci.example.com")) return "DIRECT";                                // 12
    if (literal && isInNet(host, "10.0.0.0", "255.0.0.0")) return "DIRECT"; // 13
    if (literal && isInNet(host, "172.16.0.0", "255.240.0.0")) return "DIRECT"; // 14
    if (literal && isInNet(host, "192.168.0.0", "255.255.0.0")) return "DIRECT"; // 15
    if (literal && isInNet(host, "100.64.0.0", "255.192.0.0")) return "DIRECT"; // 16
    if (literal && isInNet(host, "169.254.0.0", "255.255.0.0")) return "DIRECT"; // 17
    if (literal && isInNet(host, "127.0.0.0", "255.0.0.0")) return "DIRECT"; // 18
    if (shExpMatch(host, "*.cdn.example.org")) return "DIRECT"; // 19
    if (shExpMatch(host, "*.static.example.org")) return "DIRECT"; // 20
    if (shExpMatch(host, "update.*.example.com")) return PRIMARY; // 21
    if (shExpMatch(host, "*.video.example.net")) return SOCKS; // 22
    if (shExpMatch(host, "api-??.example.com")) return SECURE; // 23
    if (shExpMatch(host, "*.s3.amazonaws.example")) return PRIMARY; // 24
    if (shExpMatch(host, "*.partner-*.example.com")) return SECURE; // 25
    if (shExpMatch(host, "login.example.*")) return SECURE; // 26
    if (shExpMatch(host, "*.mirror.example.org")) return "DIRECT"; // 27
    if (shExpMatch(host, "downloads.example.com")) return PRIMARY; // 28
    if (shExpMatch(url, "*/service0/*")) return "PROXY svc0.example.net:3128; DIRECT"; // 29
    if (shExpMatch(url, "*/service1/*")) return "PROXY svc1.example.net:3128; DIRECT"; // 30
    if (shExpMatch(url, "*/service2/*")) return "PROXY svc2.example.net:3128; DIRECT"; // 31
    if (shExpMatch(url, "*/service3/*")) return "PROXY svc3.example.net:3128; DIRECT"; // 32
    if (shExpMatch(url, "*/service4/*")) return "PROXY svc4.example.net:3128; DIRECT"; // 33
    if (shExpMatch(url, "*/service5/*")) return "PROXY svc5.example.net:3128; DIRECT"; // 34
    if (shExpMatch(url, "*/service6/*")) return "PROXY svc6.example.net:3128; DIRECT"; // 35
    if (shExpMatch(url, "*/service7/*")) return "PROXY svc7.example.net:3128; DIRECT"; // 36
    if (shExpMatch(url, "*/service8/*")) return "PROXY svc8.example.net:3128; DIRECT"; // 37
    if (shExpMatch(url, "*/service9/*")) return "PROXY svc9.example.net:3128; DIRECT"; // 38
    if (url.substring(0, 4) == "ftp:") return "PROXY ftp-proxy.example.net:2121"; // 39
    if (url.substring(0, 3) == "ws:") return PRIMARY; // 40
    if (url.substring(0, 4) == "wss:") return SECURE; // 41
    if (url.substring(0, 6) == "https:") return SECURE; // 42
    if (dnsDomainIs(host, ".cn")) return "PROXY geo-cn.example.net:8080; " + PRIMARY; // 43
    if (dnsDomainIs(host, ".ru")) return "PROXY geo-ru.example.net:8080; " + PRIMARY; // 44
    if (dnsDomainIs(host, ".br")) return "PROXY geo-br.example.net:8080; " + PRIMARY; // 45
    if (dnsDomainIs(host, ".in")) return "PROXY geo-in.example.net:8080; " + PRIMARY; // 46
    if (dnsDomainIs(host, ".jp")) return "PROXY geo-jp.example.net:8080; " + PRIMARY; // 47
    if (dnsDomainIs(host, ".de")) return "PROXY geo-de.example.net:8080; " + PRIMARY; // 48
    if (dnsDomainLevels(host) > 5) return "DIRECT"; // 49
    if (weekdayRange("SAT", "SUN")) return PRIMARY; // 50
    return PRIMARY; // 51
}
