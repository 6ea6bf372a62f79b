public import FoundationEssentials
public import WebPage

/// The result of ``WebPageArchiver/archive(_:mode:)``: the page as saved and what happened to each resource.
public struct ArchivedWebPage: Sendable {
    /// The page's final URL, after redirects.
    public var url: URL
    /// The page's bytes as saved: rewritten (local and data modes) or as received (``WebPageArchiveMode/cacheOnly``).
    public var bytes: [UInt8]
    /// The page's charset, as used to read its URLs.
    public var charset: WebPageCharset
    /// Every resource the page and its documents referred to that was considered for fetching, in the order
    /// they were found.
    public var resources: [ArchivedResource]
    /// The body bytes of the saved resources together (what ``WebPageArchiver/Configuration/maxTotalBytes``
    /// caps).
    public var totalBytes: Int
}

/// One resource of an archived page.
public struct ArchivedResource: Sendable {
    /// What happened to it.
    public enum Outcome: Sendable, Hashable {
        /// Fetched and saved.
        case saved
        /// The server answered with this status (after redirects); the reference is left absolute.
        case status(Int)
        /// The request failed (the `ClientError` code's description); the reference is left absolute.
        case failed(String)
        /// Longer than the per-resource cap.
        case tooLarge
        /// It would have taken the total past the size cap.
        case overTotalSize
        /// A document deeper than the depth limit: not fetched.
        case tooDeep
        /// On another host while only the page's host is allowed: not fetched.
        case otherHost
        /// Past the cap on the number of resources: not fetched.
        case tooMany
    }

    /// The URL it was requested with (without fragment).
    public var url: URL
    /// The URL it came from after redirects, when it was fetched.
    public var finalURL: URL?
    /// What the first reference to it was.
    public var kind: WebPageReference.Kind
    /// Its depth: 1 for what the page refers to, 2 for what a frame or stylesheet of the page refers to, …
    public var depth: Int
    /// What happened.
    public var outcome: Outcome
    /// Its `Content-Type`, when fetched.
    public var contentType: String?
    /// Its body length as received, when saved.
    public var size: Int
    /// Its path relative to the archive's directory, in ``WebPageArchiveMode/localFiles(directory:pageFile:)``.
    public var localPath: String?
}
