import HTTPCore

extension Client {
    /// Ends the session (ASIHTTPRequest's `clearSession`): removes every session credential, for servers and for
    /// proxies (ASIHTTPRequest kept its session proxy credentials, quirk #6; they go too), the accepted
    /// negotiations sent up front and the authentication handler's remembered answers, every cookie of the
    /// cookie store, and the cache's session-duration entries. The persistent credential store is not touched.
    /// - Throws: The first error a store throws, as a ``ClientError`` staged by store; the others are still cleared.
    public func clearSession() async throws {
        authenticationSessions.removeAll()
        var firstError: (any Error)?
        do { try await clearCachedResponses(with: .sessionDuration) } catch { firstError = error }
        do { try await staged(.cookies) { try await cookies.removeAll() } } catch { firstError = firstError ?? error }
        do {
            try await staged(.credentials) { try await credentials.removeAll() }
        } catch {
            firstError = firstError ?? error
        }
        if let firstError { throw firstError }
    }
}
