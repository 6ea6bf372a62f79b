import FoundationEssentials
import HTTPCore
import Testing
import WebPage
import WebPageArchiving

/// Every public type of WebPage and WebPageArchiving crosses into a detached task (STYLE §6).
struct WebPageSendableTests {
    @Test func publicTypesAreSendable() async throws {
        let document = WebPageDocument(html: Array("<img src=a.png>".utf8), charset: .utf8)
        let reference = try #require(document.references.first)
        let charset = WebPageCharset(label: "latin1")
        let names = WebPageLocalNames()
        let resolution = WebPageURL.resolve("a.png", against: URL(string: "http://h/")!)
        let configuration = try WebPageArchiver.Configuration(maxDepth: 1)
        let mode = WebPageArchiveMode.dataURIs
        let error = WebPageArchiveError(.pageStatus, status: 404, message: "x")
        let outcome = ArchivedResource.Outcome.tooDeep
        let kinds: (WebPageReference.Kind, WebPageDocument.Format) = (.image, .html)
        let result = await Task.detached {
            "\(document.references.count) \(reference.kind) \(charset) \(names) \(resolution) "
                + "\(configuration.maxDepth) \(mode) \(error.code) \(outcome) \(kinds)"
        }.value
        #expect(result.hasPrefix("1 image windows1252"))
    }

    @Test func negativeLimitsAreAConfigurationError() {
        #expect(throws: WebPageArchiveError.self) { try WebPageArchiver.Configuration(maxDepth: -1) }
        #expect(throws: WebPageArchiveError.self) { try WebPageArchiver.Configuration(maxConcurrentRequests: 0) }
    }
}
