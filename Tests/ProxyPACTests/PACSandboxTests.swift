import FoundationEssentials
import HTTPCore
import Logging
import ProxyPAC
import Testing

/// The sandbox: a time limit per call, a memory cap, no I/O, and DIRECT with one warning for every failure.
@Suite("PAC sandbox")
struct PACSandboxTests {
    /// For the scripts that run out of time.
    static let fast = PACProxyResolver.Configuration(
        evaluationTimeLimit: .milliseconds(300), scriptLifetime: .seconds(86_400))
    /// For the others: far from any limit, even on a busy machine. Both keep the script for a day: a test that counts
    /// warnings must not see the script loaded (and warned about) again because a starved machine took minutes.
    static let roomy = PACProxyResolver.Configuration(
        evaluationTimeLimit: .seconds(20), scriptLifetime: .seconds(86_400))
    static let url = URL(string: "http://www.example.com/")!

    static func resolver(_ script: String, _ recorder: LogRecorder = LogRecorder(),
                         configuration: PACProxyResolver.Configuration = roomy) -> PACProxyResolver {
        PACProxyResolver(source: .script(script), configuration: configuration, logger: recorder.logger)
    }

    @Test func anEndlessLoopIsStoppedAndMeansDirect() async throws {
        let recorder = LogRecorder()
        let pac = Self.resolver("function FindProxyForURL(u, h) { for (;;) {} }", recorder, configuration: Self.fast)
        #expect(try await pac.routes(for: Self.url) == [.direct])
        await #expect(throws: ClientError.self) { try await pac.findProxy(url: "http://a/", host: "a") }
        #expect(try await pac.routes(for: Self.url) == [.direct])
        #expect(recorder.messages(at: .warning).count == 1)
        try await pac.shutdown()
    }

    @Test func anEndlessLoopThatCatchesTheTimeoutIsStoppedToo() async throws {
        let pac = Self.resolver("""
            function FindProxyForURL(u, h) { for (;;) { try { for (;;) {} } catch (e) {} } }
            """, configuration: Self.fast)
        do {
            _ = try await pac.findProxy(url: "http://a/", host: "a")
            Issue.record("the loop returned")
        } catch let error as ClientError {
            #expect(error.code == .timedOut)
        }
        try await pac.shutdown()
    }

    @Test func anEndlessLoopAtLoadTimeMeansDirect() async throws {
        let pac = Self.resolver(
            "while (true) {} function FindProxyForURL(u, h) { return 'PROXY p:1'; }", configuration: Self.fast)
        #expect(try await pac.routes(for: Self.url) == [.direct])
        try await pac.shutdown()
    }

    @Test func aLoopOfLongNativeCallsIsStoppedAtItsNextAllocation() async throws {
        // Few bytecode instructions, much native work: the executor's own check comes too rarely here.
        let pac = Self.resolver("""
            function FindProxyForURL(u, h) { var a = []; for (;;) a.push(new Array(100000).join('x') + a.length); }
            """, configuration: Self.fast)
        do {
            _ = try await pac.findProxy(url: "http://a/", host: "a")
            Issue.record("the loop returned")
        } catch let error as ClientError {
            #expect(error.code == .timedOut)
        }
        try await pac.shutdown()
    }

    @Test func theMemoryCapStopsAHog() async throws {
        let recorder = LogRecorder()
        var configuration = Self.roomy
        configuration.memoryLimit = 4 << 20
        let pac = Self.resolver("""
            function FindProxyForURL(u, h) { var a = [], s = 'x'; for (;;) { s = s + s; a.push(s); } }
            """, recorder, configuration: configuration)
        do {
            _ = try await pac.findProxy(url: "http://a/", host: "a")
            Issue.record("the hog returned")
        } catch let error as ClientError {
            #expect(error.code != .timedOut)
        }
        #expect(try await pac.routes(for: Self.url) == [.direct])
        #expect(recorder.messages(at: .warning).count == 1)
        try await pac.shutdown()
    }

    @Test func aSyntaxErrorOrAThrowMeansDirectWithOneWarning() async throws {
        for script in [
            "function FindProxyForURL(u, h) { return 'PROXY a:1' ",
            "function FindProxyForURL(u, h) { throw new Error('no'); }",
            "function NotTheRightName(u, h) { return 'PROXY a:1'; }",
        ] {
            let recorder = LogRecorder()
            let pac = Self.resolver(script, recorder)
            #expect(try await pac.routes(for: Self.url) == [.direct])
            #expect(try await pac.routes(for: Self.url) == [.direct])
            #expect(recorder.messages(at: .warning).count == 1, "\(script)")
            try await pac.shutdown()
        }
    }

    @Test func theScriptHasNoIOAndNoEngineInternals() async throws {
        let pac = Self.resolver("""
            function FindProxyForURL(u, h) {
                return [typeof require, typeof print, typeof Duktape, typeof process, typeof XMLHttpRequest,
                        typeof fetch, typeof setTimeout].join(',');
            }
            """)
        let answer = try await pac.findProxy(url: "http://a/", host: "a")
        #expect(answer == "undefined,undefined,undefined,undefined,undefined,undefined,undefined")
        try await pac.shutdown()
    }

    @Test func alertGoesToTheLog() async throws {
        let recorder = LogRecorder()
        let pac = Self.resolver("function FindProxyForURL(u, h) { alert('hello ' + h); return 'DIRECT'; }", recorder)
        #expect(try await pac.findProxy(url: "http://a/", host: "a") == "DIRECT")
        #expect(recorder.messages(at: .info).contains { $0.hasPrefix("PAC alert") && $0.contains("hello a") })
        try await pac.shutdown()
    }

    @Test func theAnswerBecomesRoutes() async throws {
        let pac = Self.resolver("""
            function FindProxyForURL(u, h) {
                return shExpMatch(u, '*/socks/*') ? 'SOCKS5 127.0.0.1:1080; DIRECT' : 'PROXY p.example:3128; DIRECT';
            }
            """)
        #expect(try await pac.routes(for: URL(string: "http://x/socks/a")!)
            == [.socks5(host: "127.0.0.1", port: 1080), .direct])
        #expect(try await pac.routes(for: URL(string: "http://x/b")!)
            == [.http(host: "p.example", port: 3128), .direct])
        try await pac.shutdown()
    }

    @Test func microsoftFunctionsBeyondPacparser() async throws {
        let pac = Self.resolver("""
            function FindProxyForURLEx(u, h) {
                return [sortIpAddressList('10.2.3.9;2001:4898:28:3:201:2ff:feea:fc14;::1;127.0.0.1;::9'),
                        sortIpAddressList('x'), sortIpAddressList(''), getClientVersion(), myIpAddressEx(),
                        myIpAddress()].join('|');
            }
            """, configuration: .init(evaluationTimeLimit: .seconds(20), myIPAddress: "192.0.2.7"))
        #expect(try await pac.findProxy(url: "http://a/", host: "a")
            == "::1;::9;2001:4898:28:3:201:2ff:feea:fc14;10.2.3.9;127.0.0.1|false|false|1.0|192.0.2.7|192.0.2.7")
        try await pac.shutdown()
    }

    @Test func dnsLookupsHaveATimeLimitAndACache() async throws {
        let pac = Self.resolver("""
            function FindProxyForURL(u, h) {
                return [dnsResolve('localhost'), dnsResolve('localhost'), isResolvable('no-such-host.invalid')].join();
            }
            """)
        #expect(try await pac.findProxy(url: "http://a/", host: "a") == "127.0.0.1,127.0.0.1,false")
        try await pac.shutdown()
    }
}
