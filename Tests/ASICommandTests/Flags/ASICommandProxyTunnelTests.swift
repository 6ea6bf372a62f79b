import FoundationEssentials
import HTTPTesting
import TestSupport
import Testing

/// `asi -p` (curl's `--proxytunnel`): an `http` URL goes through a `CONNECT` tunnel instead of the absolute form.
@Suite("asi: -p through tinyproxy", .enabled(if: TinyproxyPeer.shouldRun && NginxPeer.shouldRun))
struct ASICommandProxyTunnelTests {
    @Test func proxytunnelSendsCONNECTForAnHTTPURL() async throws {
        try await withNginx { nginx in
            try await withTinyproxy { proxy in
                let tunnelled = nginx.url("/hello.txt?tunnelled")
                let forwarded = nginx.url("/hello.txt?forwarded")
                let proxyURL = "http://127.0.0.1:\(proxy.port)"
                let run = try await ASICommandRun.run(["-s", "-x", proxyURL, "-p", tunnelled.absoluteString])
                #expect(run.status == 0 && run.output == "hello\n", "\(run.stderr)")
                let plain = try await ASICommandRun.run(["-s", "-x", proxyURL, forwarded.absoluteString])
                #expect(plain.status == 0 && plain.output == "hello\n", "\(plain.stderr)")
                let log = proxy.log
                #expect(log.contains("CONNECT 127.0.0.1:\(nginx.port(.plain))"), "\(log)")
                #expect(!log.contains("GET \(tunnelled.absoluteString)"), "\(log)")
                #expect(log.contains("GET \(forwarded.absoluteString)"), "\(log)")
                // Inside the tunnel nginx sees the request itself, without tinyproxy's Via field.
                let lines = nginx.accessLog.split(separator: "\n")
                #expect(lines.contains { $0.contains("GET /hello.txt?tunnelled ") && !$0.contains("tinyproxy") })
                #expect(lines.contains { $0.contains("GET /hello.txt?forwarded ") && $0.contains("tinyproxy") })
            }
        }
    }
}
