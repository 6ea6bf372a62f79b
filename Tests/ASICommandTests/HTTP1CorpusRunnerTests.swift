import Testing

/// llhttp's 65 strict response cases (`../shared/corpora/http1/run_http1.py`, each served once from a loopback
/// socket) against the built `asi`: every case passes, the `either` ones with the answer the corpus gives.
/// Among them: an unsolicited 101, chunk-size lines with junk or bare whitespace, lying and conflicting lengths.
@Suite("http1 corpus runner", .enabled(if: AuthCorpus.shouldRun))
struct HTTP1CorpusRunnerTests {
    @Test func everyStrictCasePasses() async throws {
        let output = try await AuthCorpusRunnerTests.run("../http1/run_http1.py")
        let summary = output.split(separator: "\n").last { $0.hasSuffix(" failed") } ?? ""
        let passed = Int(summary.split(separator: " ").first ?? "") ?? 0
        #expect(summary.hasSuffix(" 0 failed") && passed >= 65, "\(output)")
    }
}
