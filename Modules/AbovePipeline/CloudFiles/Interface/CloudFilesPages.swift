/// A listing as pages, fetched one at a time as the loop asks: each page starts after the last name of the one
/// before (`marker`), and the sequence ends at the first empty page (or, with a `count` limit, when it is reached),
/// as python-swiftclient does. Iterate it again to list again.
public struct CloudFilesPages<Entry: Sendable>: AsyncSequence, Sendable {
    /// One page of entries.
    public typealias Element = [Entry]
    /// A page request may fail (``CloudFilesError`` or `ClientError`).
    public typealias Failure = any Error

    let fetch: @Sendable (String?) async throws -> [Entry]
    let name: @Sendable (Entry) -> String
    let marker: String?

    init(
        marker: String?, name: @escaping @Sendable (Entry) -> String,
        fetch: @escaping @Sendable (String?) async throws -> [Entry]
    ) {
        self.marker = marker
        self.name = name
        self.fetch = fetch
    }

    /// Makes the iterator.
    /// - Returns: An iterator at the first page.
    public func makeAsyncIterator() -> Iterator { Iterator(pages: self, marker: marker) }

    /// Every entry of every page, in order.
    /// - Returns: The entries.
    /// - Throws: A page request's error.
    public func all() async throws -> [Entry] {
        var out = [Entry]()
        for try await page in self { out += page }
        return out
    }

    /// Fetches the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        let pages: CloudFilesPages
        var marker: String?
        var isFinished = false

        /// The next page, or `nil` after the last.
        /// - Returns: The page.
        /// - Throws: The page request's error.
        public mutating func next() async throws -> [Entry]? {
            guard !isFinished else { return nil }
            let page = try await pages.fetch(marker)
            guard let last = page.last else {
                isFinished = true
                return nil
            }
            marker = pages.name(last)
            return page
        }
    }
}
