public import S3

/// The pages of a bucket listing, fetched one at a time as the loop asks; the sequence ends after the page
/// that is not truncated. Iterate it again to list again.
public struct S3ListPages: AsyncSequence, Sendable {
    /// One page.
    public typealias Element = S3ListPage
    /// A page request may fail (``S3/S3Error`` or `ClientError`).
    public typealias Failure = any Error

    let fetch: @Sendable (String?) async throws -> S3ListPage

    init(fetch: @escaping @Sendable (String?) async throws -> S3ListPage) {
        self.fetch = fetch
    }

    /// Makes the iterator.
    /// - Returns: An iterator starting at the first page.
    public func makeAsyncIterator() -> Iterator { Iterator(fetch: fetch) }

    /// Fetches the pages in order.
    public struct Iterator: AsyncIteratorProtocol {
        let fetch: @Sendable (String?) async throws -> S3ListPage
        var token: String?
        var isFinished = false

        /// The next page, or `nil` after the last.
        /// - Returns: The page.
        /// - Throws: The page request's error.
        public mutating func next() async throws -> S3ListPage? {
            guard !isFinished else { return nil }
            let page = try await fetch(token)
            token = page.nextContinuationToken
            isFinished = !page.isTruncated || token == nil
            return page
        }
    }
}
