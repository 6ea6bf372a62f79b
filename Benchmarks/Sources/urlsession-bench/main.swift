// URLSession's side of the benchmarks (swift-corelibs-foundation, libcurl underneath on Linux), driven by
// ../../run.sh. Usage: urlsession-bench MODE URL [ARGS]; modes as in asikit-bench: seq URL N | conc URL N C |
// handshake URL N | download URL [PATH] | gzip URL. Prints one line `RESULT client=urlsession mode=... ...`.
// TLS: URLSession on Linux trusts only the system CA bundle, so run.sh mounts a bundle with the test CA over
// it in a private mount namespace for the TLS rows.
import Dispatch
import Foundation
import FoundationNetworking
import Glibc

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("urlsession-bench: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
    fail("usage: urlsession-bench seq|conc|handshake|download|gzip URL [N [C] | PATH]")
}
let mode = arguments[1]

func count(_ index: Int, _ name: String) -> Int {
    guard arguments.count > index, let value = Int(arguments[index]), value > 0 else { fail("\(mode) needs \(name)") }
    return value
}

func report(_ fields: String) { print("RESULT client=urlsession mode=\(fields)") }

/// Writes each chunk to a file descriptor as it arrives, so nothing is buffered in memory.
final class StreamingSink: NSObject, URLSessionDataDelegate, @unchecked Sendable {  // written on the delegate queue only; read after `done`
    let fd: Int32
    var bytes = 0
    var encoding = "identity"
    var failure: (any Error)?
    let done = DispatchSemaphore(value: 0)

    init(fd: Int32) { self.fd = fd }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        if http?.statusCode != 200 { failure = URLError(.badServerResponse) }
        if let value = http?.value(forHTTPHeaderField: "Content-Encoding") { encoding = value }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        bytes += data.count
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { failure = URLError(.cannotWriteToFile); return }
                offset += written
            }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { failure = error }
        done.signal()
    }
}

func makeSession(width: Int, delegate: (any URLSessionDelegate)? = nil) -> URLSession {
    let configuration = URLSessionConfiguration.default
    configuration.httpMaximumConnectionsPerHost = width
    configuration.urlCache = nil
    configuration.timeoutIntervalForRequest = 120
    return URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
}

func get(_ session: URLSession, _ request: URLRequest) async throws -> Int {
    let (data, response) = try await session.data(for: request)
    guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw URLError(.badServerResponse) }
    return data.count
}

func concurrent(_ session: URLSession, _ n: Int, _ width: Int) async throws -> Int {
    let request = URLRequest(url: url)
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for worker in 0..<width {
            let share = n / width + (worker < n % width ? 1 : 0)
            group.addTask {
                var bytes = 0
                for _ in 0..<share { bytes += try await get(session, request) }
                return bytes
            }
        }
        return try await group.reduce(0, +)
    }
}

do {
    switch mode {
    case "seq", "handshake":
        let n = count(3, "N")
        let session = makeSession(width: 1)
        var request = URLRequest(url: url)
        if mode == "handshake" {
            request.setValue("close", forHTTPHeaderField: "Connection")
        } else {
            _ = try await get(session, request)  // warm-up: opens the keep-alive connection
        }
        let start = now()
        var bytes = 0
        for _ in 0..<n { bytes += try await get(session, request) }
        let seconds = now() - start
        report("\(mode) requests=\(n) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "conc":
        let (n, c) = (count(3, "N"), count(4, "C"))
        let session = makeSession(width: c)
        _ = try await concurrent(session, c, c)  // warm-up: opens C connections
        let start = now()
        let bytes = try await concurrent(session, n, c)
        let seconds = now() - start
        report("conc requests=\(n) concurrency=\(c) bytes=\(bytes) seconds=\(seconds) rps=\(Double(n) / seconds)")
    case "download", "gzip":
        let path = arguments.count > 3 ? arguments[3] : "/dev/null"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { fail("cannot open \(path)") }
        let sink = StreamingSink(fd: fd)
        let session = makeSession(width: 1, delegate: sink)
        var request = URLRequest(url: url)
        if mode == "gzip" { request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding") }
        let start = now()
        session.dataTask(with: request).resume()
        sink.done.wait()
        let seconds = now() - start
        close(fd)
        if let failure = sink.failure { fail("\(mode) failed: \(failure)") }
        report("\(mode) bytes=\(sink.bytes) encoding=\(sink.encoding) seconds=\(seconds) MBps=\(Double(sink.bytes) / seconds / 1e6)")
    default:
        fail("unknown mode \(mode)")
    }
} catch {
    fail("\(mode) failed: \(error)")
}
