public import FoundationEssentials
import HTTPCore

/// Where a PAC script comes from: a file, a URL fetched through a ``PACScriptFetcher``, or text in memory.
public struct PACSource: Sendable, Hashable, CustomStringConvertible {
    enum Base: Hashable {
        case file(String)
        case url(URL)
        case text(String)
    }

    let base: Base

    /// A PAC file on disk.
    /// - Parameter path: The file's path.
    /// - Returns: The source.
    public static func file(_ path: String) -> PACSource { PACSource(base: .file(path)) }

    /// A PAC file at a URL (`http`, `https`; `file` URLs are read from disk).
    /// - Parameter url: The URL.
    /// - Returns: The source.
    public static func url(_ url: URL) -> PACSource {
        url.isFileURL ? PACSource(base: .file(url.path)) : PACSource(base: .url(url))
    }

    /// A PAC script given as text.
    /// - Parameter script: The script.
    /// - Returns: The source.
    public static func script(_ script: String) -> PACSource { PACSource(base: .text(script)) }

    /// A path or URL as a user writes it (`asi --pac`): `http://` and `https://` are URLs, `file://` and anything
    /// else a path.
    /// - Parameter text: The path or URL.
    /// - Returns: The source.
    public static func parse(_ text: String) -> PACSource {
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("file://"),
            let url = URL(string: text)
        {
            return .url(url)
        }
        return .file(text)
    }

    /// The path or URL, without a user name or password (a script in memory shows as `<script>`).
    public var description: String {
        switch base {
        case .file(let path): return path
        case .url(let url): return url.removingUserInfo()?.absoluteString ?? "<url>"
        case .text: return "<script>"
        }
    }
}

/// A loaded PAC script and its generation: every successful load is a new generation, so the engine reloads.
struct PACScript: Sendable {
    var text: String
    var generation: Int
}
