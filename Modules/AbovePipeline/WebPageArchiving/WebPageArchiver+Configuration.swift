public import HTTPCore

extension WebPageArchiver {
    /// The limits and the request options of an archive. The defaults are safe for any page (issue 29).
    public struct Configuration: Sendable {
        /// How deep frames, iframes, stylesheets and `@import`s are followed: the page is level 0 and each of
        /// them is one level below the document that references it (the shallowest path counts). Documents deeper
        /// than this are not fetched; their references are made absolute. Default 5.
        public var maxDepth: Int
        /// The most body bytes of saved resources together (the page itself does not count). A resource that
        /// would take the total past it is left absolute, and the ones that still fit are saved. Default 64 MiB.
        public var maxTotalBytes: Int
        /// The most bytes of one resource (and of the page); a longer one is left absolute. Default 16 MiB.
        public var maxResourceBytes: Int
        /// The most resources fetched for one page, whatever their size. Default 2,000.
        public var maxResources: Int
        /// Whether only resources on the page's host and port (of its final URL) are fetched. Default `false`. A
        /// resource that redirects to another host is not saved either.
        public var sameHostOnly: Bool
        /// How many resources are fetched at once. Default 4.
        public var maxConcurrentRequests: Int
        /// The options of every request. Redirects are always followed (the page's final URL is the base of its
        /// references) and bodies are inflated as they arrive.
        public var options: RequestOptions

        /// Creates a configuration.
        /// - Parameters:
        ///   - maxDepth: How deep documents are followed (page = 0).
        ///   - maxTotalBytes: The cap on saved resources' bytes together.
        ///   - maxResourceBytes: The cap on one resource.
        ///   - maxResources: The cap on the number of resources.
        ///   - sameHostOnly: Whether only the page's host and port are fetched.
        ///   - maxConcurrentRequests: How many requests run at once.
        ///   - options: The request options.
        /// - Throws: ``WebPageArchiveError`` with ``WebPageArchiveError/Code/invalidConfiguration`` for a negative
        ///   limit or a width below 1.
        public init(
            maxDepth: Int = 5, maxTotalBytes: Int = 64 << 20, maxResourceBytes: Int = 16 << 20,
            maxResources: Int = 2000, sameHostOnly: Bool = false, maxConcurrentRequests: Int = 4,
            options: RequestOptions = RequestOptions()
        ) throws {
            guard maxDepth >= 0, maxTotalBytes >= 0, maxResourceBytes >= 0, maxResources >= 0,
                maxConcurrentRequests >= 1
            else {
                throw WebPageArchiveError(.invalidConfiguration, message: "Limits must not be negative")
            }
            self.maxDepth = maxDepth
            self.maxTotalBytes = maxTotalBytes
            self.maxResourceBytes = maxResourceBytes
            self.maxResources = maxResources
            self.sameHostOnly = sameHostOnly
            self.maxConcurrentRequests = maxConcurrentRequests
            self.options = options
            self.options.followsRedirects = true
            self.options.inflatesWhenComplete = false
        }

        /// The defaults.
        public static var `default`: Configuration {
            // The defaults are valid, so this cannot throw.
            try! Configuration()
        }
    }
}
