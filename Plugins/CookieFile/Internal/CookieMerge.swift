import FoundationEssentials
import HTTPCore

/// The three-way merge that lets two processes share one cookie file without losing each other's cookies.
///
/// `base` is what this process last read from or wrote to the file, `ours` what it holds now, `theirs` what the
/// file holds now. A cookie this process added, changed or removed since `base` is taken from `ours`; every other
/// cookie is taken from `theirs`, so another process's additions, changes and removals survive too.
enum CookieMerge {
    /// Merges the three states.
    /// - Parameters:
    ///   - base: The cookies last synced with the file, by identity.
    ///   - ours: The cookies held now, in creation order.
    ///   - theirs: The cookies in the file now, oldest first (as ``NetscapeCookieFile/parse(_:loadedAt:)`` gives them).
    /// - Returns: The merged cookies: `ours`'s order first, then the cookies only `theirs` has.
    static func merge(base: [Cookie.Identity: Cookie], ours: [Cookie], theirs: [Cookie]) -> [Cookie] {
        var theirsByIdentity: [Cookie.Identity: Cookie] = [:]
        for cookie in theirs { theirsByIdentity[cookie.identity] = cookie }
        var merged: [Cookie] = []
        var seen = Set<Cookie.Identity>()
        for cookie in ours {
            let identity = cookie.identity
            seen.insert(identity)
            guard let synced = base[identity], synced == cookie else {
                merged.append(cookie)  // added or changed here
                continue
            }
            if let other = theirsByIdentity[identity] {  // unchanged here: the file's version, unless removed there
                merged.append(sameContent(other, synced) ? cookie : other)
            }
        }
        for cookie in theirs where !seen.contains(cookie.identity) {
            seen.insert(cookie.identity)
            if let synced = base[cookie.identity], sameContent(cookie, synced) { continue }  // removed here
            merged.append(cookie)
        }
        return merged
    }

    /// Whether two cookies say the same in a cookie file: every written field, the expiry to the second.
    static func sameContent(_ lhs: Cookie, _ rhs: Cookie) -> Bool {
        func seconds(_ date: Date?) -> Int64? { date.map(\.cookieFileSeconds) }
        return lhs.name == rhs.name && lhs.value == rhs.value && lhs.domain == rhs.domain
            && lhs.isHostOnly == rhs.isHostOnly && lhs.path == rhs.path && seconds(lhs.expires) == seconds(rhs.expires)
            && lhs.isSecure == rhs.isSecure && lhs.isHTTPOnly == rhs.isHTTPOnly
    }
}
