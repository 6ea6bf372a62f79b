import FoundationEssentials
import HTTPCore
import ProxyPAC
import Testing

/// The library gives the same answers as pacparser on the corpus: `Corpus/expected.tsv` holds pacparser's answer
/// for every PAC file and URL (written by `scripts/compare-pacparser.py --write-expected`, which also checks
/// `asi --pac F --pac-test URL` against a live pacparser in CI).
@Suite("PAC corpus against pacparser")
struct PACCorpusTests {
    static let corpus = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Corpus").path

    struct Row: Sendable, CustomStringConvertible {
        var file: String
        var url: String
        var answer: String
        var description: String { "\(file) \(url)" }
    }

    static let rows: [Row] = {
        guard let data = FileManager.default.contents(atPath: corpus + "/expected.tsv") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { return nil }
            return Row(file: String(fields[0]), url: String(fields[1]), answer: String(fields[2]))
        }
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.rows.count >= 100)
        #expect(Set(Self.rows.map(\.file)).count >= 6)
    }

    @Test func answersAsPacparserDoes() async throws {
        // One resolver per file, its URLs one after another, as a browser would evaluate them.
        for file in Set(Self.rows.map(\.file)).sorted() {
            let resolver = PACProxyResolver(
                source: .file(Self.corpus + "/" + file), configuration: .init(evaluationTimeLimit: .seconds(20)))
            for row in Self.rows where row.file == file {
                let answer = try? await resolver.findProxy(url: row.url, host: PACProxyResolver.host(inURL: row.url))
                // pacparser raises for a failing script, which the expected file records as DIRECT.
                #expect((answer ?? "DIRECT") == row.answer, "\(row)")
            }
            try await resolver.shutdown()
        }
    }
}
