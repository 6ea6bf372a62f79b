import FoundationEssentials
import HTTPCore
import Synchronization

/// A cookie store that keeps only cookies for one site and its subdomains, and drops the rest.
/// Lookups use `Cookie.matches(_:at:)`, the rule every store applies.
final class FirstPartyCookieStore: CookieStore {
    private let site: String
    private let cookies = Mutex<[Cookie.Identity: Cookie]>([:])

    init(site: String) {
        self.site = site
    }

    func cookies(for url: URL) -> [Cookie] {
        let now = Date()
        return cookies.withLock { Array($0.values) }
            .filter { $0.matches(url, at: now) }
            .sorted { $0.path.count != $1.path.count ? $0.path.count > $1.path.count : $0.created < $1.created }
    }

    func store(_ new: [Cookie], receivedFrom url: URL) {
        let now = Date()
        cookies.withLock { stored in
            for var cookie in new where Cookie.domainMatches(host: cookie.domain, domain: site, hostOnly: false) {
                if cookie.isExpired(at: now) {
                    stored[cookie.identity] = nil
                    continue
                }
                if let existing = stored[cookie.identity] { cookie.created = existing.created }
                stored[cookie.identity] = cookie
            }
        }
    }
}
