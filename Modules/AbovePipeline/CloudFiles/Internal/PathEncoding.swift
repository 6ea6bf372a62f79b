/// Percent-encodes container and object names for a URL path, and values for a query.
enum PathEncoding {
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// A name for the path: every byte but the unreserved ones (and `/`, when `keepsSlash`) encoded.
    static func path(_ name: String, keepsSlash: Bool = true) -> String {
        encode(name) { unreserved.contains($0) || (keepsSlash && $0 == UInt8(ascii: "/")) }
    }

    /// A query value: every byte but the unreserved ones encoded.
    static func query(_ value: String) -> String { encode(value) { unreserved.contains($0) } }

    private static func encode(_ text: String, keeps: (UInt8) -> Bool) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        for byte in text.utf8 {
            if keeps(byte) {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
