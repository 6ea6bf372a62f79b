// A typical corporate PAC file.
var proxy = "PROXY proxy1.corp.example:8080; PROXY proxy2.corp.example:8080; DIRECT";
var bypass = ["*.corp.example", "*.intranet.example", "localhost", "127.*", "10.*"];
function FindProxyForURL(url, host) {
    host = host.toLowerCase();
    if (isPlainHostName(host) || localHostOrDomainIs(host, "localhost.localdomain")) return "DIRECT";
    for (var i = 0; i < bypass.length; i++) {
        if (shExpMatch(host, bypass[i])) return "DIRECT";
    }
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
        if (isInNet(host, "10.0.0.0", "255.0.0.0") || isInNet(host, "172.16.0.0", "255.240.0.0") ||
            isInNet(host, "192.168.0.0", "255.255.0.0")) return "DIRECT";
    }
    if (url.substring(0, 4) == "ftp:") return "PROXY ftp-proxy.corp.example:2121";
    if (url.substring(0, 6) == "https:") return "HTTPS secure.corp.example:443; " + proxy;
    if (dnsDomainIs(host, ".video.example")) return "SOCKS5 socks.corp.example:1080; SOCKS socks4.corp.example:1081";
    if (dnsDomainLevels(host) > 4) return "DIRECT";
    return proxy;
}
