import FoundationEssentials
import TestSupport
import Testing

/// The http-state cookie cases (`cookies/run_cookies.py`) in the runner's `--mode proxy`: the runner's server is
/// the HTTP proxy, so `home.example.org:8888` and its siblings reach it without `/etc/hosts` or `--resolve`. The
/// runner's `-x URL` is moved into `http_proxy`, so the cases also go through asi's environment rules (with `-x`
/// as given the result is the same: 219 passed, the 3 disabled cases failed; one run takes up to a few minutes,
/// so only this one runs here). Skipped when the corpora are absent, unless ASI_REQUIRE_PEERS=1.
@Suite("asi: cookie corpus through a proxy", .serialized)
struct ASICommandCookieCorpusProxyTests {
    /// A client command that runs `asi` with the runner's `-x URL` turned into `http_proxy=URL`.
    static func environmentWrapper(in directory: String) throws -> String {
        let path = directory + "/asi-env-proxy.sh"
        let script = """
            #!/bin/sh
            # Usage: asi-env-proxy.sh ASI ARGS...: runs ASI with ARGS, "-x URL" moved into http_proxy.
            asi="$1"; shift
            count=$#
            while [ "$count" -gt 0 ]; do
                argument="$1"; shift; count=$((count - 1))
                if [ "$argument" = "-x" ]; then
                    http_proxy="$1"; export http_proxy; shift; count=$((count - 1)); continue
                fi
                set -- "$@" "$argument"
            done
            exec "$asi" "$@"

            """
        try Data(script.utf8).write(to: URL(filePath: path))
        return "/bin/sh \(path) \(ASICommandRun.binary)"
    }

    static func expectEveryEnabledCasePasses(_ output: String) {
        let disabled = ASICommandCookieCorpusTests.disabledHTTPState
        #expect(output.contains("\(222 - disabled.count) passed") || output.contains("222 passed"),
                "\(output.suffix(2000))")
        #expect(ASICommandCookieCorpusTests.failures(in: output).isSubset(of: disabled), "\(output.suffix(2000))")
    }

    @Test func everyEnabledCasePassesWithHttpProxy() async throws {
        let directory = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let client = try Self.environmentWrapper(in: directory)
        guard let output = try await ASICommandCookieCorpusTests.runner(
            "cookies/run_cookies.py", ["--mode", "proxy"], client: client)
        else { return }
        Self.expectEveryEnabledCasePasses(output)
    }
}
