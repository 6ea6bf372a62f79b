// Address functions on literal addresses and localhost: isInNet, convert_addr, dnsResolve, isResolvable.
function FindProxyForURL(url, host) {
    var facts = [
        convert_addr("0.0.0.0"), convert_addr("127.0.0.1"), convert_addr("255.255.255.255"),
        convert_addr("10.1.2.3"), convert_addr("192.168.1.20"), convert_addr("1.2.3"),
        isInNet("10.1.2.3", "10.0.0.0", "255.0.0.0"), isInNet("11.1.2.3", "10.0.0.0", "255.0.0.0"),
        isInNet("192.168.1.20", "192.168.1.0", "255.255.255.0"), isInNet("192.168.2.20", "192.168.1.0", "255.255.255.0"),
        isInNet("300.1.1.1", "0.0.0.0", "0.0.0.0"), isInNet("localhost", "127.0.0.0", "255.0.0.0"),
        isInNet("127.0.0.1", "127.0.0.1", "255.255.255.255"), isInNet("1.2.3.4", "0.0.0.0", "0.0.0.0"),
        isInNet("no-such-host.invalid", "0.0.0.0", "0.0.0.0"),
        dnsResolve("localhost"), dnsResolve("127.0.0.1"), dnsResolve("10.20.30.40"), dnsResolve("no-such-host.invalid"),
        isResolvable("localhost"), isResolvable("127.0.0.1"), isResolvable("no-such-host.invalid"),
        typeof dnsResolve("localhost")
    ];
    var ip = dnsResolve(host);
    if (ip != null && isInNet(ip, "10.0.0.0", "255.0.0.0")) return "DIRECT";
    if (ip != null && isInNet(ip, "127.0.0.0", "255.0.0.0")) return "DIRECT; PROXY loop.example:80";
    return "PROXY fallback.example:3128 ; " + facts.join(" ");
}
