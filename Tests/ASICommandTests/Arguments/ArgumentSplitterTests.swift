import Testing

@testable import ASICommand

/// ``ArgumentSplitter`` and ``ConfigFile``, in process: what the parser is handed, without timing anything.
struct ArgumentSplitterTests {
    static let table = ArgumentTable.of(ASICommand.self)

    /// A splitter whose config files come from `files` (a missing name fails with 26, as a missing file does).
    static func splitter(_ files: [String: String] = [:]) -> ArgumentSplitter {
        var splitter = ArgumentSplitter(table: table)
        splitter.readFile = { (path: String) throws(TransferFailure) -> String in
            guard let text = files[path] else { throw TransferFailure(26, "Cannot read config file '\(path)'.") }
            return text
        }
        return splitter
    }

    @Test func theTableKnowsFlagsOptionsAndTheirShortNames() {
        #expect(Self.table.long["silent"] == .flag)
        #expect(Self.table.long["output"] == .option)
        #expect(Self.table.long["url"] == .option)
        #expect(Self.table.short["K"] == .option)
        #expect(Self.table.longNameOfShort["o"] == "output")
        #expect(Self.table.long["help"] == .flag)
    }

    /// The work the parser does grows with what it is handed; with the URLs taken out it is handed the options
    /// only, however many URLs there are (swift-argument-parser appends repeated values in O(n) each).
    @Test func tenThousandURLsNeverReachTheParser() throws {
        let urls = (0..<10_000).map { "http://127.0.0.1:9/\($0)" }
        let outcome = try #require(try Self.splitter().split(["-s"] + urls + ["-H", "A: b"]))
        #expect(outcome.groups == [.init(parserArguments: ["-s", "--header=A: b"], urls: urls)])
    }

    @Test func valuesFollowTheParsersRules() throws {
        let outcome = try #require(
            try Self.splitter().split([
                "-sSo", "out", "u1", "--max-time", "5", "--url", "u2", "-H", "-", "--", "-u3", "--url",
            ]))
        #expect(outcome.groups.count == 1)
        #expect(outcome.groups[0].parserArguments == ["-sS", "--output=out", "--max-time=5", "--header=-"])
        #expect(outcome.groups[0].urls == ["u1", "u2", "-u3", "--url"])
    }

    @Test func whatTheTableCannotExplainIsLeftToTheParser() throws {
        #expect(try Self.splitter().split(["--no-such-flag", "u"]) == nil)
        #expect(try Self.splitter().split(["-o"]) == nil, "a missing value")
        #expect(try Self.splitter().split(["-o", "--fail", "u"]) == nil, "a value that is an option")
        #expect(try Self.splitter().split(["-o=x", "u"]) == nil)
        #expect(try Self.splitter().split(["--silent=yes", "u"]) == nil)
        #expect(try Self.splitter().split(["---x"]) == nil)
    }

    @Test func nextSeparatesGroups() throws {
        let outcome = try #require(try Self.splitter().split(["-s", "a", "--next", "-i", "b", "--next"]))
        #expect(outcome.groups.map(\.urls) == [["a"], ["b"], []])
        #expect(outcome.groups.map(\.parserArguments) == [["-s"], ["-i"], []])
    }

    @Test func aConfigFileStandsWhereKIsAndMayIncludeAnother() throws {
        let splitter = Self.splitter([
            "main.cfg": """
            # comment
            silent
            url = "http://a/1"
            -o one
            config = inner.cfg
            data = "-starts with a dash"
            no-such-thing
            next
            """,
            "inner.cfg": "url http://a/2\n--output two\n",
        ])
        let outcome = try #require(try splitter.split(["u0", "-sK", "main.cfg", "u3", "-i"]))
        // `next` in the file starts a group, and the command line after -K continues in it (as in curl).
        #expect(outcome.groups.count == 2)
        #expect(outcome.groups[0].urls == ["u0", "http://a/1", "http://a/2"])
        #expect(
            outcome.groups[0].parserArguments == [
                "-s", "--silent", "--output=one", "--output=two", "--data=-starts with a dash",
            ])
        #expect(outcome.groups[1] == .init(parserArguments: ["-i"], urls: ["u3"]))
        #expect(outcome.warnings == ["main.cfg:7: warning: 'no-such-thing' is unknown"])
        #expect(throws: TransferFailure.self) { try splitter.split(["-K", "absent.cfg"]) }
    }

    @Test func aConfigThatIncludesItselfStops() {
        let splitter = Self.splitter(["loop.cfg": "config = loop.cfg\n"])
        #expect(throws: TransferFailure.self) { try splitter.split(["-K", "loop.cfg"]) }
    }

    @Test func configLinesFollowCurlsQuotingAndSeparators() {
        var warnings: [Int] = []
        let lines = ConfigFile.parse(
            """
              url = "http://x/a b"
            output:"q\\"uote\\\\d\\t\\n\\z"
            --header X:y
            -o=keep
            /comment
            *comment

            silent
            referer = http://r/ trailing
            data = ""
            """
        ) { number, _ in warnings.append(number) }
        #expect(
            lines == [
                .init(option: "url", parameter: "http://x/a b", number: 1),
                .init(option: "output", parameter: "q\"uote\\d\t\nz", number: 2),
                .init(option: "--header", parameter: "X:y", number: 3),
                .init(option: "-o=keep", parameter: nil, number: 4),
                .init(option: "silent", parameter: nil, number: 8),
                .init(option: "referer", parameter: "http://r/", number: 9),
                .init(option: "data", parameter: nil, number: 10),
            ])
        #expect(warnings == [9])
    }

    /// The split command line parses to the same command as the whole line given to the parser.
    @Test(arguments: [
        ["-s", "-o", "a", "u1", "u2", "-H", "X: 1", "--fail"],
        ["-sSL", "u1", "-w", "%{http_code}", "--max-time", "3", "u2"],
        ["-i", "--compressed", "-u", "me:pw", "u1", "--", "-u2"],
    ])
    func theSplitParsesAsTheWholeLineDoes(arguments: [String]) throws {
        let whole = try #require(try ASICommand.parsed(arguments, urls: nil) as? ASICommand)
        let group = try #require(try Self.splitter().split(arguments)?.groups.first)
        let split = try #require(try ASICommand.parsed(group.parserArguments, urls: group.urls) as? ASICommand)
        #expect(split.urls == whole.urls)
        #expect(split.output.outputs == whole.output.outputs)
        #expect(split.output.silent == whole.output.silent)
        #expect(split.request.headers == whole.request.headers)
        #expect(split.request.user == whole.request.user)
        #expect(split.transfer.maxRedirects == whole.transfer.maxRedirects)
    }
}

extension ArgumentSplitterTests {
    @Test func shortCommandLinesGoStraightToTheParser() {
        #expect(!ArgumentSplitter.isNeeded(for: ["-s", "-o", "x", "http://a/"]))
        #expect(!ArgumentSplitter.isNeeded(for: Array(repeating: "u", count: ArgumentSplitter.parserURLLimit)))
        #expect(ArgumentSplitter.isNeeded(for: Array(repeating: "u", count: ArgumentSplitter.parserURLLimit + 1)))
        #expect(ArgumentSplitter.isNeeded(for: ["--url", "u"]))
        #expect(ArgumentSplitter.isNeeded(for: ["--url=u"]))
        #expect(ArgumentSplitter.isNeeded(for: ["-sK", "f"]))
        #expect(ArgumentSplitter.isNeeded(for: ["--config", "f"]))
    }
}
