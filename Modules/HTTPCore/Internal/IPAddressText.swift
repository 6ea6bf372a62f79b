#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// IP literals as bytes, for `no_proxy` entries and CIDR ranges.
enum IPAddressText {
    /// The 4 bytes of a dotted IPv4 literal or the 16 bytes of an IPv6 literal (no brackets, no zone); `nil` for
    /// anything else, host names included.
    static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let string = String(text)
        guard !string.isEmpty, string.utf8.count < 64 else { return nil }
        if string.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, string, &address) == 1 else { return nil }
            return withUnsafeBytes(of: &address) { Array($0) }
        }
        var address = in_addr()
        guard inet_pton(AF_INET, string, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// Whether `address` lies in the network `network/bits` (both of the same family; `false` otherwise).
    static func contains(_ address: [UInt8], _ network: [UInt8], bits: Int) -> Bool {
        guard address.count == network.count, bits >= 0, bits <= address.count * 8 else { return false }
        let whole = bits / 8
        guard address[..<whole] == network[..<whole] else { return false }
        let rest = bits % 8
        guard rest > 0 else { return true }
        let mask = UInt8(0xFF) << (8 - rest)
        return address[whole] & mask == network[whole] & mask
    }
}
