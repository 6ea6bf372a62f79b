import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization
import Testing

/// The cookie suite against the default jar with other limits, and against stores it must reject.
/// (`ConformanceTests.swift` runs it on the default jar; `Examples/CustomAdapters` runs it on the example store.)
@Suite struct CookieStoreConformanceTests {
    @Test func memoryCookieJarWithOtherLimits() async throws {
        let limits = try CookieStorage.Limits(maxCookieSize: 100, maxCookiesPerDomain: 7, maxCookies: 20)
        try await CookieStoreConformance.run(limits: limits) { MemoryCookieJar(limits: limits) }
    }

    @Test func recordingStoreOverAJarWithOtherLimits() async throws {
        let limits = try CookieStorage.Limits(maxCookiesPerDomain: 3, maxCookies: 5)
        try await CookieStoreConformance.run(limits: limits) {
            RecordingCookieStore(base: MemoryCookieJar(limits: limits))
        }
    }

    @Test func recordingStoreRecordsRemovalsAndForwardsThem() async throws {
        let jar = MemoryCookieJar()
        let store = RecordingCookieStore(base: jar)
        let site = URL(string: "http://a.example/")!
        try await store.store([Cookie(name: "s", value: "1", domain: "a.example"),
                               Cookie(name: "p", value: "1", domain: "a.example", expires: Date() + 60)],
                              receivedFrom: site)
        try await store.removeSessionCookies()
        #expect(jar.allCookies.map(\.name) == ["p"])
        try await store.removeAll()
        #expect(jar.isKnownEmpty && !store.isKnownEmpty)
        #expect(store.calls == [.store(["s", "p"], from: site), .removeSessionCookies, .removeAll])
    }

    @Test(arguments: [
        BrokenCookieStore.Fault.claimsEmpty, .reversesOrder, .ignoresLimits, .keepsSessionCookies,
    ])
    func suiteCatchesABrokenStore(fault: BrokenCookieStore.Fault) async throws {
        let error = await #expect(throws: ConformanceFailure.self) {
            try await CookieStoreConformance.run { BrokenCookieStore(fault) }
        }
        #expect(error?.suite == "CookieStoreConformance")
    }
}

/// A jar with one fault, for the suite to find.
final class BrokenCookieStore: CookieStore {
    enum Fault: Sendable, CaseIterable {
        case claimsEmpty, reversesOrder, ignoresLimits, keepsSessionCookies
    }

    private let fault: Fault
    private let storage: Mutex<CookieStorage>

    init(_ fault: Fault) {
        self.fault = fault
        let unlimited = try! CookieStorage.Limits(maxCookieSize: .max, maxCookiesPerDomain: .max, maxCookies: .max)
        storage = Mutex(CookieStorage(limits: fault == .ignoresLimits ? unlimited : .standard))
    }

    func cookies(for url: URL) -> [Cookie] {
        let found = storage.withLock { $0.cookies(for: url, at: Date()) }
        return fault == .reversesOrder ? found.reversed() : found
    }

    func store(_ cookies: [Cookie], receivedFrom url: URL) {
        storage.withLock { $0.store(cookies, receivedFrom: url, at: Date()) }
    }

    func removeSessionCookies() {
        if fault != .keepsSessionCookies { storage.withLock { _ = $0.removeSessionCookies() } }
    }

    func removeAll() {
        storage.withLock { _ = $0.removeAll() }
    }

    var isKnownEmpty: Bool { fault == .claimsEmpty }
}
