import FoundationEssentials
import HTTPCore
import Synchronization

/// A cookie store that keeps only cookies for one site and its subdomains, and drops the rest.
/// The storage model (replacement, expiry, order, limits) is `CookieStorage` from HTTPCore, behind a lock;
/// the store only adds its own filter and supplies the time.
final class FirstPartyCookieStore: CookieStore {
    private let site: String
    private let storage = Mutex(CookieStorage())

    init(site: String) {
        self.site = site
    }

    func cookies(for url: URL) -> [Cookie] {
        storage.withLock { $0.isEmpty ? [] : $0.cookies(for: url, at: Date()) }
    }

    func store(_ new: [Cookie], receivedFrom url: URL) {
        let firstParty = new.filter { Cookie.domainMatches(host: $0.domain, domain: site, hostOnly: false) }
        let now = Date()
        storage.withLock { $0.store(firstParty, receivedFrom: url, at: now) }
    }

    func removeSessionCookies() {
        storage.withLock { _ = $0.removeSessionCookies() }
    }

    func removeAll() {
        storage.withLock { _ = $0.removeAll() }
    }

    var isKnownEmpty: Bool {
        storage.withLock { $0.isEmpty }
    }
}
