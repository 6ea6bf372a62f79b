import Dispatch
import FoundationEssentials
import HTTPPipeline
import HTTPTesting
import TerminalProgress

/// Chapters 10–13: the data path (forms, gzip, resumed downloads) and a queue with progress bars.
enum DataChapters {
    static func run(client: Client, server: LoopbackServer, scratch: String) throws {
        chapter("10. A multipart form with a file, streamed from disk (ASIFormDataRequest)")
        let report = scratch + "/report.txt"
        _ = FileManager.default.createFile(atPath: report, contents: Data(repeating: UInt8(ascii: "x"), count: 40_000))
        var form = FormData()
        form.add("alice", forKey: "user")
        try form.addFile(atPath: report, forKey: "attachment")
        let upload = try client.sendSynchronously(Request(url: server.url("/upload"), form: form))
        print("   server: \(upload.text())")

        chapter("11. gzip: Accept-Encoding is sent, the body is inflated (allowCompressedResponse)")
        let text = try client.sendSynchronously(Request(url: server.url("/gzip")))
        print("   \(text.rawBody.count) bytes on the wire → \(text.body.count) bytes: \"\(text.text().prefix(32))…\"")

        chapter("12. A download to a file that resumes after the connection drops")
        var download = Request(url: server.url("/big.bin"))
        download.options.download = DownloadOptions(
            destinationPath: scratch + "/big.bin", temporaryPath: scratch + "/big.bin.part", allowsResume: true)
        do { _ = try client.sendSynchronously(download) } catch let error as ClientError {
            print("   first attempt: \(error.code), partial file kept: \(fileSize(scratch + "/big.bin.part")) bytes")
        }
        let resumed = try client.sendSynchronously(download)
        let intact = FileManager.default.contents(atPath: scratch + "/big.bin").map(Array.init) == TourServer.big
        print("   second attempt: \(resumed.status.code) Partial Content, file complete and intact: \(intact)")

        chapter("13. A queue of downloads with live progress (ASINetworkQueue, width 2)")
        let bar = TerminalProgressBar()
        let queue = RequestQueue(
            client: client, configuration: .init(maxConcurrentRequests: 2, showsAccurateProgress: true, progress: bar))
        for index in 1...4 {
            let handle = queue.add(Request(url: server.url("/slow/\(index)")))
            bar.setLabel("file \(index)", for: handle.requestID)
        }
        queue.go()
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await queue.waitUntilFinished()
            finished.signal()
        }
        finished.wait()
        bar.finish()
        print("   queue finished; download progress \(queue.downloadProgress)")
    }

    static func fileSize(_ path: String) -> Int {
        FileManager.default.contents(atPath: path)?.count ?? 0
    }
}
