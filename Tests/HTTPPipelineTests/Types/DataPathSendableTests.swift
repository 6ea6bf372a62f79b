import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Testing

/// The data-path value types cross task boundaries (STYLE.md §6).
@Suite struct DataPathSendableTests {
    @Test func valuesCanBeUsedFromDetachedTasks() async throws {
        var form = FormData()
        form.add("v", forKey: "k")
        var builder = RequestBodyBuilder()
        builder.append("x")
        let options = DownloadOptions(destinationPath: "/tmp/x", temporaryPath: "/tmp/x.part", allowsResume: true)
        let encoding = TextEncoding.windows1252
        let client = Client(transport: ScriptedTransport.ok, codecs: [XorCodec()])
        let result = await Task.detached { [form, builder] in
            (form.contentType, builder.length, options.allowsResume, encoding.decode([0x80]), client.codecs.count)
        }.value
        #expect(result.0 == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(result.1 == 1)
        #expect(result.2)
        #expect(result.3 == "€")
        #expect(result.4 == 1)
    }

    @Test func streamingIgnoresTheDownloadDestination() async throws {
        let directory = try makeDirectory()
        defer { removeDirectory(directory) }
        var request = Request(url: URL(string: "http://a.example/")!)
        request.options.download = DownloadOptions(destinationPath: directory + "/out")
        let response = try await Client(transport: ScriptedTransport { _, _ in .text("streamed") }).stream(request)
        var received: [UInt8] = []
        for try await chunk in response.body { received += chunk }
        #expect(received == Array("streamed".utf8))
        #expect(listing(directory).isEmpty)
    }
}
