import HTTPCore
import Testing

/// The one scope-matching rule every credential store uses.
@Suite struct CredentialScopeMatchingTests {
    static let realmA = CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "A")
    static let realmB = CredentialScope(scheme: "https", host: "example.com", port: 443, realm: "B")
    static let noRealm = CredentialScope(scheme: "https", host: "example.com", port: 443)

    @Test func ranksExactThenRealmlessThenAnyRealm() {
        #expect(Self.realmA.match(against: Self.realmA) == .exact)
        #expect(Self.noRealm.match(against: Self.noRealm) == .exact)
        #expect(Self.noRealm.match(against: Self.realmA) == .realmless)
        #expect(Self.realmA.match(against: Self.noRealm) == .anyRealm)
        #expect(Self.realmB.match(against: Self.realmA) == nil)
        #expect(CredentialScope.Match.exact > .realmless && CredentialScope.Match.realmless > .anyRealm)
    }

    @Test func schemeHostPortAndTargetMustBeEqual() {
        for other in [
            CredentialScope(scheme: "http", host: "example.com", port: 443),
            CredentialScope(scheme: "https", host: "example.org", port: 443),
            CredentialScope(scheme: "https", host: "example.com", port: 8443),
            CredentialScope(scheme: "https", host: "example.com", port: 443, target: .proxy),
        ] {
            #expect(other.match(against: Self.noRealm) == nil)
            #expect(Self.noRealm.match(against: other) == nil)
        }
        #expect(CredentialScope(scheme: "HTTPS", host: "Example.COM", port: 443).match(against: Self.noRealm) == .exact)
    }

    @Test func bestMatchPrefersTheBetterMatchThenTheFirst() {
        #expect(Self.realmA.bestMatch(among: [Self.noRealm, Self.realmB, Self.realmA]) == Self.realmA)
        #expect(Self.realmA.bestMatch(among: [Self.realmB, Self.noRealm]) == Self.noRealm)
        #expect(Self.noRealm.bestMatch(among: [Self.realmB, Self.realmA]) == Self.realmB)
        #expect(Self.noRealm.bestMatch(among: [Self.realmB, Self.noRealm]) == Self.noRealm)
        #expect(Self.realmA.bestMatch(among: [Self.realmB]) == nil)
        let entries = [(scope: Self.realmB, user: "bob"), (scope: Self.noRealm, user: "carol")]
        #expect(Self.realmA.bestMatch(among: entries, scope: \.scope)?.user == "carol")
    }

    @Test func proxyScopesUseTheRouteKindAndTheProxy() {
        let scope = CredentialScope(proxy: .https(host: "Proxy.Example", port: 8443, credential: nil), realm: "P")
        let expected = CredentialScope(scheme: "https", host: "proxy.example", port: 8443, realm: "P", target: .proxy)
        #expect(scope == expected)
        #expect(scope.description == "proxy https://proxy.example:8443 realm=\"P\"")
        let server = CredentialScope(scheme: "https", host: "proxy.example", port: 8443, realm: "P")
        #expect(server.match(against: scope) == nil)
        #expect(CredentialScope(proxy: .http(host: "proxy.example", port: 8443)).match(against: scope) == nil)
    }
}
