import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The credential suite passes the in-memory stores and rejects stores that break the seam's contract.
@Suite struct CredentialStoreConformanceTests {
    @Test func recordingStoreForwardingItsEmptinessHint() async throws {
        try await CredentialStoreConformance.run { RecordingCredentialStore(forwardsIsKnownEmpty: true) }
    }

    @Test func suiteRejectsAStoreThatIgnoresTheTarget() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await CredentialStoreConformance.run { HostOnlyCredentialStore(ignoringTarget: true) }
        }
        #expect(failure?.check == "keyedByHostPortSchemeAndTarget")
    }

    @Test func suiteRejectsAStoreThatClaimsToBeEmpty() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await CredentialStoreConformance.run { HostOnlyCredentialStore(claimsEmpty: true) }
        }
        #expect(failure?.check == "isKnownEmptyTruthful")
    }

    @Test func suiteRejectsAStoreWithItsOwnRealmRule() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await CredentialStoreConformance.run { HostOnlyCredentialStore(prefersNewest: true) }
        }
        #expect(failure?.check == "followsCoreRule")
    }

    @Test func suiteRejectsAStoreWithoutRemoveAll() async throws {
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await CredentialStoreConformance.run { HostOnlyCredentialStore(removeAllIsNoOp: true) }
        }
        #expect(failure?.check == "removeAll")
    }
}

/// A store with one chosen flaw; with no flaw it follows the core's rule.
final class HostOnlyCredentialStore: CredentialStore {
    private let entries = Mutex<[(scope: CredentialScope, credential: Credential)]>([])
    let ignoringTarget: Bool
    let claimsEmpty: Bool
    let prefersNewest: Bool
    let removeAllIsNoOp: Bool

    init(ignoringTarget: Bool = false, claimsEmpty: Bool = false, prefersNewest: Bool = false,
         removeAllIsNoOp: Bool = false) {
        self.ignoringTarget = ignoringTarget
        self.claimsEmpty = claimsEmpty
        self.prefersNewest = prefersNewest
        self.removeAllIsNoOp = removeAllIsNoOp
    }

    func credential(for scope: CredentialScope) async -> Credential? {
        var wanted = scope
        let saved = entries.withLock { $0 }.map { entry in
            var scope = entry.scope
            if ignoringTarget { scope.target = wanted.target }
            return (scope: scope, credential: entry.credential)
        }
        if prefersNewest {  // a rule of its own: the exact scope, else the newest on the server, whatever the realm
            if let exact = saved.first(where: { $0.scope == wanted }) { return exact.credential }
            wanted.realm = nil
            return saved.last { $0.scope.match(against: wanted) != nil }?.credential
        }
        return wanted.bestMatch(among: saved, scope: \.scope)?.credential
    }

    func save(_ credential: Credential, for scope: CredentialScope) async {
        entries.withLock { saved in
            saved.removeAll { $0.scope == scope }
            saved.append((scope, credential))
        }
    }

    func removeCredential(for scope: CredentialScope) async {
        entries.withLock { $0.removeAll { $0.scope == scope } }
    }

    func removeAll() async {
        if !removeAllIsNoOp { entries.withLock { $0.removeAll() } }
    }

    var isKnownEmpty: Bool { claimsEmpty }
}
