/// Small text helpers for proxy settings (proxy URLs, `no_proxy` lists), free of Foundation's character sets.
enum ProxyText {
    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: some StringProtocol) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let sub = Substring(text)
        guard let first = sub.firstIndex(where: { !blank($0) }), let last = sub.lastIndex(where: { !blank($0) })
        else { return "" }
        return sub[first...last]
    }

    /// `text` with `%XX` escapes decoded as UTF-8; `nil` when an escape is malformed.
    static func percentDecoded(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = Hex.value(of: utf8.removeFirst()),
                let low = Hex.value(of: utf8.removeFirst())
            else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
