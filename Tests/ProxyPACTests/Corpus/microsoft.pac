// Microsoft's IPv6 extensions: isResolvableEx, isInNetEx, dnsResolveEx, FindProxyForURLEx (sortIpAddressList is not in pacparser).
function FindProxyForURL(url, host) { return "PROXY never-used.example:1"; }
function FindProxyForURLEx(url, host) {
    var facts = [
        isInNetEx("10.1.2.3", "10.0.0.0/8"), isInNetEx("11.1.2.3", "10.0.0.0/8"), isInNetEx("192.168.1.7", "192.168.1.0/24"),
        isInNetEx("192.168.1.7", "192.168.1.0/33"), isInNetEx("192.168.1.7", "192.168.1.0"),
        isInNetEx("192.168.1.7", "192.168.0.0/23"), isInNetEx("192.168.3.7", "192.168.0.0/23"),
        isInNetEx("2001:db8::1", "2001:db8::/32"), isInNetEx("2001:db9::1", "2001:db8::/32"),
        isInNetEx("::1", "::1/128"), isInNetEx("fe80::1:2", "fe80::/10"), isInNetEx("fec0::1", "fe80::/10"),
        isInNetEx("2001:db8:0:0:0:0:0:1", "2001:db8::/127"), isInNetEx("2001:db8::", "2001:db8::/129"),
        dnsResolveEx("127.0.0.1"), dnsResolveEx("10.9.8.7"), dnsResolveEx("::1"), dnsResolveEx("no-such-host.invalid"),
        isResolvableEx("127.0.0.1"), isResolvableEx("localhost"), isResolvableEx("no-such-host.invalid")
    ];
    if (isInNetEx(host, "10.0.0.0/8")) return "DIRECT";
    return "PROXY ex.example:8080; DIRECT ; " + facts.join(" ");
}
