import FoundationEssentials
import HTTPCore
@testable import HTTPPipeline
import Testing

/// The hop rules as a value, with no server and no I/O: what each response means for the request that got it.
@Suite struct HopStateTests {
    static let url = URL(string: "http://example.com/a")!

    static func state(_ configure: (inout Request) -> Void = { _ in }, cache: Bool = false) throws -> HopState {
        var request = Request(url: url)
        configure(&request)
        return HopState(request, looksUpCache: cache)
    }

    @Test func aPlainResponseIsDeliveredWithNothingToSave() throws {
        var state = try Self.state()
        let decision = try state.next(afterStatus: .ok, location: nil, isFromProxy: false, fromCache: false)
        #expect(decision == HopDecision(action: .deliver))
        #expect(state.redirectCount == 0)
    }

    @Test func withoutACacheNoHopWaitsForALookupEvenAfterARedirect() throws {
        var state = try Self.state()
        #expect(!state.cache.needsLookup)
        _ = try state.next(afterStatus: .found, location: "/b", isFromProxy: false, fromCache: false)
        #expect(!state.cache.needsLookup)
        var cached = try Self.state(cache: true)
        #expect(cached.cache.needsLookup)
        cached.cache.needsLookup = false
        _ = try cached.next(afterStatus: .found, location: "/b", isFromProxy: false, fromCache: false)
        #expect(cached.cache.needsLookup, "a new URL is looked up again")
    }

    @Test func aRedirectIsTakenCountedAndEndsPastTheLimit() throws {
        var state = try Self.state { $0.options.maxRedirects = 2 }
        let first = try state.next(afterStatus: .movedPermanently, location: "/b", isFromProxy: false, fromCache: false)
        #expect(first.action == .redirect)
        #expect(state.current.url.absoluteString == "http://example.com/b")
        _ = try state.next(afterStatus: .found, location: "/c", isFromProxy: false, fromCache: false)
        #expect(state.redirectCount == 2)
        #expect(throws: ClientError.self) {
            try state.next(afterStatus: .found, location: "/d", isFromProxy: false, fromCache: false)
        }
    }

    @Test func aRedirectIsDeliveredWhenTheRequestDoesNotFollow() throws {
        var state = try Self.state { $0.options.followsRedirects = false }
        let decision = try state.next(afterStatus: .found, location: "/b", isFromProxy: false, fromCache: false)
        #expect(decision.action == .deliver)
        #expect(state.current.url == Self.url)
    }

    @Test func aProxysChallengeComesFirstAndAnOriginsOnlyFromTheOrigin() throws {
        var state = try Self.state()
        let proxy = try state.next(afterStatus: .proxyAuthenticationRequired, location: nil, isFromProxy: true,
                                   fromCache: false)
        #expect(proxy == HopDecision(action: .answerProxyChallenge))
        // A 407 the origin itself sent is not a proxy's challenge: it is delivered.
        let origin = try state.next(afterStatus: .proxyAuthenticationRequired, location: nil, isFromProxy: false,
                                    fromCache: false)
        #expect(origin.action == .deliver)
        let challenge = try state.next(afterStatus: .unauthorized, location: nil, isFromProxy: false, fromCache: false)
        #expect(challenge.action == .answerChallenge)
    }

    @Test func aCredentialThatWasAcceptedIsSavedBeforeTheRedirect() throws {
        var state = try Self.state()
        state.authentication.credential = Credential(user: "u", password: "p")
        let decision = try state.next(afterStatus: .seeOther, location: "/done", isFromProxy: false, fromCache: false)
        #expect(decision.savesCredential)
        #expect(decision.action == .redirect)
    }

    @Test func aWithheldBodyIsSentOnlyWhenTheProbeWasNotChallenged() throws {
        let withheld: (inout Request) -> Void = {
            $0.method = .post
            $0.body = .bytes(Array("payload".utf8))
            $0.options.withholdsBodyUntilChallenged = true
            $0.options.presentsCredentialsBeforeChallenge = false
            $0.options.credential = Credential(user: "u", password: "p")
        }
        var accepted = try Self.state(withheld)
        #expect(accepted.nextHop.body?.length == 0, "the probe goes without its body")
        let again = try accepted.next(afterStatus: .ok, location: nil, isFromProxy: false, fromCache: false)
        #expect(again.action == .sendAgain)
        #expect(accepted.nextHop.body?.length == 7, "then with it")

        var challenged = try Self.state(withheld)
        let answer = try challenged.next(afterStatus: .unauthorized, location: nil, isFromProxy: false,
                                         fromCache: false)
        #expect(answer.action == .answerChallenge)
        #expect(challenged.nextHop.body?.length == 7, "the answer carries the body")
    }

    @Test func aNotModifiedAnswerRevalidatesOnlyAnEntryBeingRevalidated() throws {
        var state = try Self.state(cache: true)
        let unconditional = try state.next(afterStatus: .notModified, location: nil, isFromProxy: false,
                                           fromCache: false)
        #expect(unconditional.action == .deliver)
        let head = CachedResponseHead(status: .ok, headerFields: [.eTag: "\"1\""], storedAt: Date(), expiresAt: nil)
        state.cache.revalidating = CacheEntry(head: head, body: InMemoryCachedBody([]))
        let conditional = try state.next(afterStatus: .notModified, location: nil, isFromProxy: false,
                                         fromCache: false)
        #expect(conditional.action == .revalidate(CacheEntry(head: head, body: InMemoryCachedBody([]))))
        // A 304 the cache itself answered is the stored response, delivered as it is.
        let stored = try state.next(afterStatus: .notModified, location: nil, isFromProxy: false, fromCache: true)
        #expect(stored.action == .deliver)
        state.revalidationLost()
        #expect(state.cache.revalidating == nil && state.cache.fallback == nil)
    }

    @Test func onlyATimeoutIsRetriedAndOnlyWhileRetriesRemain() throws {
        var state = try Self.state { $0.options.retriesOnTimeout = 1 }
        let refused = state.retrying(after: ClientError(.connectFailed, message: "refused"))
        let first = state.retrying(after: ClientError(.timedOut, message: "slow"))
        #expect(!refused && first && state.retryCount == 1)
        let second = state.retrying(after: ClientError(.timedOut, message: "slow again"))
        #expect(!second && state.retryCount == 1)
    }
}
