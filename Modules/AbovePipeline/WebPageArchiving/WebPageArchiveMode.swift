/// What an archive produces: ASIWebPageRequest's `urlReplacementMode`, plus a mode that only fills the cache.
public enum WebPageArchiveMode: Sendable, Hashable {
    /// The page written to `directory/pageFile`, each resource under `directory` (`host/path…`), and every saved
    /// reference rewritten as a relative path (ASIReplaceExternalResourcesWithLocalURLs). Frames and stylesheets
    /// are rewritten in turn.
    case localFiles(directory: String, pageFile: String)
    /// One self-contained page: every saved resource inlined as a `data:` URI, stylesheets (`text/css`) and frames
    /// (`text/html`) with their own resources inlined recursively (ASIReplaceExternalResourcesWithData). Nothing is
    /// written; ``ArchivedWebPage/bytes`` is the page.
    case dataURIs
    /// The page untouched and its resources fetched through the client, so its cache holds them
    /// (ASIDontModifyHTML). Nothing is written.
    case cacheOnly
}
