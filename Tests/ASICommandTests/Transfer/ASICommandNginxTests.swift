import FoundationEssentials
import TestSupport
import Testing

/// The `asi` command against a real nginx: output to stdout (binary-safe, streamed), `-i`/`-I`, `--fail`, the TLS
/// flags (`-k`, `--cacert`, `--cert`/`--key`/`--cert-type`/`--pass`) and `--no-keepalive`.
@Suite("asi: nginx", .enabled(if: NginxPeer.shouldRun))
struct ASICommandNginxTests {
    @Test func theBodyGoesToStdoutByteForByte() async throws {
        try await withNginx { nginx in
            let run = try await ASICommandRun.run([nginx.url("/1k.bin").absoluteString])
            #expect(run.status == 0)
            #expect(run.stdout == NginxPeer.oneKiB)
            // stdout is not a terminal, so curl's progress meter goes to stderr, as curl's does.
            #expect(run.stderr.hasPrefix("  % Total    % Received"), "\(run.stderr)")
        }
    }

    @Test func includePrintsTheHeadBeforeTheBodyAndHeadPrintsOnlyTheHead() async throws {
        try await withNginx { nginx in
            let url = nginx.url("/hello.txt").absoluteString
            let included = try await ASICommandRun.run(["-i", url])
            #expect(included.status == 0)
            #expect(included.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(included.output.contains("\r\nContent-Length: 6\r\n"))
            #expect(included.output.hasSuffix("\r\n\r\nhello\n"))

            let head = try await ASICommandRun.run(["-I", url])
            #expect(head.status == 0)
            #expect(head.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(head.output.contains("\r\nContent-Length: 6\r\n"))
            #expect(head.output.hasSuffix("\r\n\r\n"), "no body after the head: \(head.output)")
        }
    }

    @Test func failTurnsA404IntoExit22WithoutOutput() async throws {
        try await withNginx { nginx in
            let url = nginx.url("/missing").absoluteString
            let plain = try await ASICommandRun.run([url, "-w", "%{http_code}"])
            #expect(plain.status == 0)
            #expect(plain.output.contains("404 Not Found"))
            #expect(plain.output.hasSuffix("404"))

            let failing = try await ASICommandRun.run(["--fail", url])
            #expect(failing.status == 22)
            #expect(failing.stdout.isEmpty)
            #expect(failing.stderr.contains("(22) The requested URL returned error: 404"))

            let silent = try await ASICommandRun.run(["-s", "--fail", url])
            #expect(silent.status == 22)
            #expect(silent.stderr.isEmpty)
        }
    }

    @Test func serverCertificatesAreCheckedUnlessInsecure() async throws {
        try await withNginx { nginx in
            let url = nginx.url("/hello.txt", on: .tls).absoluteString
            let untrusted = try await ASICommandRun.run([url])
            #expect(untrusted.status == 60, "\(untrusted.stderr)")
            #expect(untrusted.stdout.isEmpty)

            let insecure = try await ASICommandRun.run(["-k", url])
            #expect(insecure.status == 0, "\(insecure.stderr)")
            #expect(insecure.output == "hello\n")

            let trusted = try await ASICommandRun.run(["--cacert", nginx.certificates.caPath, url])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(trusted.output == "hello\n")

            let wrongName = nginx.url("/hello.txt", on: .wrongName).absoluteString
            let mismatch = try await ASICommandRun.run(["--cacert", nginx.certificates.caPath, wrongName])
            #expect(mismatch.status == 60, "\(mismatch.stderr)")
            let mismatchInsecure = try await ASICommandRun.run(["-k", wrongName])
            #expect(mismatchInsecure.output == "hello\n")
        }
    }

    @Test func aClientCertificateIsPresentedAsPEMOrPKCS12() async throws {
        try await withNginx { nginx in
            let certs = nginx.certificates
            let url = nginx.url("/", on: .clientAuth).absoluteString
            let base = ["--cacert", certs.caPath, url]
            let pem = try await ASICommandRun.run(
                base + ["--cert", certs.clientCertificatePath, "--key", certs.clientKeyPath])
            #expect(pem.status == 0, "\(pem.stderr)")
            #expect(pem.output == certs.clientSubject)

            let encrypted = try await ASICommandRun.run(
                base + [
                    "--cert", certs.clientCertificatePath, "--key", certs.clientEncryptedKeyPath, "--pass",
                    certs.password,
                ])
            #expect(encrypted.output == certs.clientSubject, "\(encrypted.stderr)")

            let bundle = try await ASICommandRun.run(
                base + ["--cert", certs.clientPKCS12Path, "--cert-type", "P12", "--pass", certs.password])
            #expect(bundle.status == 0, "\(bundle.stderr)")
            #expect(bundle.output == certs.clientSubject)
            #expect(!bundle.stderr.contains(certs.password))

            let none = try await ASICommandRun.run(base)
            #expect(none.output.contains("No required SSL certificate was sent"))
        }
    }

    @Test func connectionsAreReusedUnlessNoKeepalive() async throws {
        try await withNginx { nginx in
            let url = nginx.url("/conn").absoluteString
            let reused = try await ASICommandRun.run([url, url, "-w", "\n"])
            let reusedLines = reused.output.split(separator: "\n").map { $0.split(separator: " ") }
            #expect(reusedLines.count == 2)
            #expect(reusedLines.first?.first == reusedLines.last?.first, "one connection: \(reused.output)")
            #expect(reusedLines.map { $0.last } == ["1", "2"])

            let closed = try await ASICommandRun.run(["--no-keepalive", url, url, "-w", "\n"])
            let closedLines = closed.output.split(separator: "\n").map { $0.split(separator: " ") }
            #expect(closedLines.count == 2)
            #expect(closedLines.first?.first != closedLines.last?.first, "two connections: \(closed.output)")
            #expect(closedLines.map { $0.last } == ["1", "1"])
        }
    }
}
