extension LoopbackServer {
    /// Starts a server that answers from a fixed table by path, and `404 Not Found` for any other path.
    ///
    /// ```swift
    /// let server = try LoopbackServer(routes: ["/a": .ok("x"), "/old": .redirect(301, to: "/a")])
    /// ```
    /// - Parameters:
    ///   - host: `127.0.0.1` (default) or `::1`.
    ///   - routes: Responses by request path (the target without its query), matched exactly.
    /// - Throws: What ``init(host:handler:)`` throws.
    public convenience init(host: String = "127.0.0.1", routes: [String: LoopbackResponse]) throws {
        try self.init(host: host) { request in
            routes[request.path]
                ?? .status(404, headers: [("Content-Type", "text/plain")], body: Array("Not Found".utf8))
        }
    }
}
