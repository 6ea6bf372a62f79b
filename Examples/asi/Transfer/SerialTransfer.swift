import HTTPCore
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#endif

/// Runs the URLs one after another on one client (connections are reused), streaming each body to stdout as
/// it arrives or saving it to its file.
struct SerialTransfer {
    let context: TransferContext

    /// Runs every target.
    /// - Returns: The exit code of the last transfer that failed, or 0.
    func run(_ targets: [Target]) async -> Int32 {
        var code: Int32 = 0
        for target in targets {
            let made: Result<Request, TransferFailure>
            do {
                made = .success(try context.builder.make(for: target))
            } catch {
                made = .failure(error)
            }
            // curl's meter starts with the transfer, after the files to send were found.
            var meter: ProgressMeter<ContinuousClock>?
            if context.showsMeter, case .success = made { meter = ProgressMeter() }
            let record = TransferRecord(url: target.url, bar: context.bar, meter: meter, forwards: true)
            var failure: TransferFailure?
            do {
                var request = try made.get()
                request.options.progress = record
                let prepared = request
                try await Deadline.run(seconds: context.maxTime) {
                    try await transfer(prepared, to: target, record: record)
                }
            } catch {
                failure = TransferFailure(error)
            }
            record.finish(failure)
            if let failure {
                context.report(failure)
                code = failure.exitCode
            }
            context.writeOut?.print(record.snapshot)
        }
        return code
    }

    private func transfer(_ request: Request, to target: Target, record: TransferRecord) async throws {
        if case .file = target.destination {
            let response = try await context.client.send(request)
            try Delivery(context: context).deliver(response, for: target, record: record)
            return
        }
        let response = try await context.client.stream(request)
        record.note(response.head, info: response.info)
        Verbose.printCacheOutcome(response.info, if: context.verbose)
        Verbose.printResponse(response.head, info: response.info, if: context.verbose)
        if context.fail && response.status.code >= 400 {
            await response.body.discard()
            throw TransferFailure.httpError(response.status.code)
        }
        if context.include { try Output.writeStandardOutput(Output.headText(response.head)) }
        if request.method == .head {
            await response.body.discard()
            return
        }
        var fd: Int32 = 1
        if case .device(let path) = target.destination { fd = try Output.openDevice(path) }
        defer { if fd != 1 { close(fd) } }
        for try await chunk in response.body {
            try Output.writeBytes(chunk, to: fd)
        }
        // After the body, as curl prints them (HTTP/2 trailers too, which curl 7.88 loses beside a Content-Length).
        if context.include, let trailers = response.body.trailers {
            try Output.writeStandardOutput(Output.trailerText(trailers))
        }
    }
}
