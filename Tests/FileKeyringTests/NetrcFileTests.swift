import FileKeyring
import HTTPCore
import Testing

/// The `.netrc` parser and lookup against curl's behaviour. The inputs are the `.netrc` files of curl's own tests
/// (curl/curl `tests/data/testNNN`, as kept in `../shared/corpora/netrc/curl-tests`); the expected credentials
/// follow from each test's expected `Authorization` line.
@Suite struct NetrcFileTests {
    private func parse(_ text: String) throws -> NetrcFile { try NetrcFile(parsing: Array(text.utf8)) }

    /// curl test 1304 (the unit test of `Curl_parsenetrc`): its `.netrc` input, looked up by host and by login.
    @Test func curlTest1304() throws {
        let netrc = try parse(
            "machine example.com login admin password passwd\nmachine curl.example.com login none password none\n")
        #expect(netrc.credential(forHost: "test.example.com") == nil)
        #expect(netrc.credential(forHost: "example.com") == Credential(user: "admin", password: "passwd"))
        #expect(
            netrc.credential(forHost: "example.com", user: "admin") == Credential(user: "admin", password: "passwd"))
        #expect(netrc.credential(forHost: "example.com", user: "none") == nil)
        #expect(netrc.credential(forHost: "example.com", user: "admi") == nil)
        #expect(netrc.credential(forHost: "curl.example.com") == Credential(user: "none", password: "none"))
        #expect(
            netrc.credential(forHost: "curl.example.com", user: "none") == Credential(user: "none", password: "none"))
        #expect(netrc.credential(forHost: "EXAMPLE.com") == Credential(user: "admin", password: "passwd"))
    }

    /// curl test 478: several entries for one host, the URL's user picks one; the last `password` of an entry
    /// wins; an entry for the user without a password is passed over; `\r` in quotes is a carriage return.
    @Test func curlTest478SeveralAccounts() throws {
        let netrc = try parse(
            """

            machine github.com
            password weird
            password firstone
            login daniel

            machine github.com

            machine github.com
            login debbie

            machine github.com
            password weird
            password "second\\r"
            login debbie

            """)
        #expect(
            netrc.credential(forHost: "github.com", user: "debbie") == Credential(user: "debbie", password: "second\r"))
        #expect(netrc.credential(forHost: "github.com") == Credential(user: "daniel", password: "firstone"))
    }

    /// curl tests 682, 683, 684, 685, 2005: first match, by user, entries without a login.
    @Test func curlTests682To685And2005() throws {
        let two = try parse(
            "machine 127.0.0.1 login user1 password passwd1\nmachine 127.0.0.1 login user2 password passwd2\n")
        #expect(two.credential(forHost: "127.0.0.1", user: "user1") == Credential(user: "user1", password: "passwd1"))
        #expect(two.credential(forHost: "127.0.0.1", user: "user2") == Credential(user: "user2", password: "passwd2"))
        let noLogin = try parse("machine 127.0.0.1 password 5up3r53cr37\n")
        #expect(noLogin.credential(forHost: "127.0.0.1") == Credential(user: "", password: "5up3r53cr37"))
        let mixed = try parse(
            """
            machine 127.0.0.1 password firstthis login unknown
            machine 127.0.0.1 password 5up3r53cr37
            machine 127.0.0.1 password d1ff3r3nt login anotherone
            """)
        #expect(
            mixed.credential(forHost: "127.0.0.1", user: "user") == Credential(user: "user", password: "5up3r53cr37"))
        let machineFollows = try parse("machine 127.0.0.1\npassword 5up3r53cr37\n\nmachine example.com\n")
        #expect(machineFollows.credential(forHost: "127.0.0.1") == Credential(user: "", password: "5up3r53cr37"))
        #expect(machineFollows.credential(forHost: "example.com") == nil)
    }

    /// curl tests 679 and 1672: quoting and escapes; `macdef` skipped up to the empty line, even with a broken
    /// quote inside.
    @Test func curlTests679And1672QuotingAndMacdef() throws {
        let quoted = try parse(#"machine 127.0.0.1 login "user one" password "with spaces and \"\n\r\t\a""# + "\n")
        #expect(
            quoted.credential(forHost: "127.0.0.1")
                == Credential(user: "user one", password: "with spaces and \"\n\r\ta"))
        let macro = try parse(
            "\nmacdef testmacro\n\tbin\n\tcd \"broken quote\n\tput password.bin\n\tquit\n\n"
                + "machine 127.0.0.1 login user1 password passwd1\n")
        #expect(macro.credential(forHost: "127.0.0.1") == Credential(user: "user1", password: "passwd1"))
        #expect(macro.entries.count == 1)
    }

    /// curl tests 479 and 486: `default` answers every host; a `default` with neither login nor password answers none.
    @Test func curlTests479And486Default() throws {
        let netrc = try parse("\nmachine a.com\n  login alice\n  password alicespassword\n\ndefault\n  login bob\n\n")
        #expect(netrc.credential(forHost: "a.com") == Credential(user: "alice", password: "alicespassword"))
        #expect(netrc.credential(forHost: "b.com") == Credential(user: "bob", password: ""))
        let empty = try parse("\nmachine a.com\n  login alice\n  password alicespassword\n\ndefault\n\n")
        #expect(empty.credential(forHost: "b.com") == nil)
    }

    /// curl tests 792 and 793: a NUL byte ends its line, so the password after it is never read.
    @Test func curlTests792And793EmbeddedNUL() throws {
        for line in [#"machine 127.0.0.1 login username password"#, #"machine 127.0.0.1 login username "password""#] {
            let netrc = try NetrcFile(parsing: Array(line.utf8) + [0] + Array(" hello\n".utf8))
            #expect(netrc.credential(forHost: "127.0.0.1") == Credential(user: "username", password: ""))
        }
    }

    @Test func commentsCRLFAndErrors() throws {
        let netrc = try parse(
            "# a comment line\r\nmachine a.com login u # trailing comment password nope\r\npassword p\r\n")
        #expect(netrc.credential(forHost: "a.com") == Credential(user: "u", password: "p"))
        #expect(throws: NetrcFile.SyntaxError.self) { try parse("machine a.com login \"unterminated\n") }
        let entry = NetrcFile.Entry(machine: "a.com", login: "u", password: "topsecret")
        #expect(!"\(entry)".contains("topsecret"))
        #expect(!"\(NetrcFile(entries: [entry]))".contains("topsecret"))
    }

    @Test func readOnlyStoreAnswersServerScopesByHost() async throws {
        let store = NetrcCredentialStore(file: try parse("machine a.com login u password p\n"))
        let expected = Credential(user: "u", password: "p")
        #expect(
            await store.credential(for: CredentialScope(scheme: "http", host: "a.com", port: 8080, realm: "r"))
                == expected)
        #expect(await store.credential(for: CredentialScope(proxy: .http(host: "a.com", port: 80))) == nil)
        await store.save(
            Credential(user: "x", password: "y"), for: CredentialScope(scheme: "http", host: "a.com", port: 80))
        await store.removeAll()
        #expect(await store.credential(for: CredentialScope(scheme: "https", host: "a.com", port: 443)) == expected)
        #expect(!store.isKnownEmpty)
        #expect(NetrcFile.defaultPath(environment: ["NETRC": "/x/netrc", "HOME": "/home/u"]) == "/x/netrc")
        #expect(NetrcFile.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.netrc")
    }
}
