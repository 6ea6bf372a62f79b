import FoundationEssentials
import HTTPCore
import Testing
import WebPageArchiving

/// The guide's table of limits states the code's defaults (STYLE §7: a documented default must match the code).
struct WebPageGuideTests {
    @Test func theGuideStatesTheDefaults() throws {
        let guide = URL(filePath: #filePath).deletingLastPathComponent().appending(
            path: "../../Docs/Guide/15-WebPage.md")
        let text = try String(decoding: Data(contentsOf: guide), as: UTF8.self)
        var documented: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.filter { $0 != " " && $0 != "`" } }
            guard cells.count >= 2 else { continue }
            documented[cells[0]] = cells[1]
        }
        let defaults = WebPageArchiver.Configuration.default
        let actual: [String: String] = [
            "maxDepth": "\(defaults.maxDepth)", "maxTotalBytes": "\(defaults.maxTotalBytes)",
            "maxResourceBytes": "\(defaults.maxResourceBytes)", "maxResources": "\(defaults.maxResources)",
            "sameHostOnly": "\(defaults.sameHostOnly)", "maxConcurrentRequests": "\(defaults.maxConcurrentRequests)",
        ]
        for (name, value) in actual { #expect(documented[name] == value, "\(name)") }
        #expect(defaults.options.followsRedirects)
    }
}
