/// Where a response body is saved instead of being kept in memory (ASIHTTPRequest's
/// `downloadDestinationPath`, `temporaryFileDownloadPath` and `allowResumeForFileDownloads`).
///
/// The body is written to ``temporaryPath`` while it arrives and moved to ``destinationPath`` (replacing any file
/// there, unless it is not a regular file: a directory, device or symbolic link is never replaced and the request
/// fails with `storageFailed`) only when it is complete; a compressed body is inflated into the destination
/// instead. An empty body creates no file. When the request fails, the temporary file is removed unless
/// ``allowsResume`` is set.
///
/// ```swift
/// var request = Request(url: URL(string: "https://example.com/big.iso")!)
/// request.options.download = DownloadOptions(
///     destinationPath: "/srv/big.iso", temporaryPath: "/srv/big.iso.part", allowsResume: true)
/// ```
public struct DownloadOptions: Sendable, Hashable {
    /// The file the complete body ends up in (`downloadDestinationPath`).
    public var destinationPath: String
    /// The file the body is written to while it arrives (`temporaryFileDownloadPath`). `nil` picks a unique
    /// hidden name next to the destination, so the final move is an atomic rename.
    public var temporaryPath: String?
    /// Whether an interrupted download is kept and continued (`allowResumeForFileDownloads`). Default `false`.
    ///
    /// Needs ``temporaryPath``: when that file exists, the request asks for the rest with `Range: bytes=<size>-`.
    /// A `206` is appended; a `200` (the server ignored the range) starts the file again from zero; a `416` whose
    /// `Content-Range` says the file is already complete finishes the download.
    public var allowsResume: Bool

    /// Creates download options.
    /// - Parameters:
    ///   - destinationPath: Where the complete body goes.
    ///   - temporaryPath: Where the body is written while it arrives; `nil` for a unique name next to the
    ///     destination.
    ///   - allowsResume: Whether an interrupted download is kept and continued.
    public init(destinationPath: String, temporaryPath: String? = nil, allowsResume: Bool = false) {
        self.destinationPath = destinationPath
        self.temporaryPath = temporaryPath
        self.allowsResume = allowsResume
    }
}
