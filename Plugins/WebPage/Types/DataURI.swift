import FoundationEssentials

/// `data:` URIs for resources inlined into a self-contained page.
public enum DataURI {
    /// A base64 `data:` URI.
    /// - Parameters:
    ///   - bytes: The resource's bytes.
    ///   - mediaType: Its media type with parameters (`text/css;charset=utf-8`); spaces are dropped.
    /// - Returns: `data:<type>;base64,<bytes>`.
    public static func make(_ bytes: [UInt8], mediaType: String) -> String {
        let type = mediaType.filter { $0 != " " && $0 != "\t" && $0.isASCII && $0 != "\"" && $0 != "," }
        return "data:" + type + ";base64," + Data(bytes).base64EncodedString()
    }
}
