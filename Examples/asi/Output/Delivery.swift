import HTTPCore
import HTTPPipeline

/// Puts a finished response where it belongs: stdout, or its output file (which the library has already written
/// when the status was 2xx).
struct Delivery {
    let context: TransferContext

    /// Delivers a response whose body was saved to the target's file, or is in memory.
    /// - Throws: ``TransferFailure`` 22 for an error status with `--fail`, 23 when writing fails.
    func deliver(_ response: ClientResponse, for target: Target, record: TransferRecord) throws(TransferFailure) {
        record.note(response.head, info: response.info)
        Verbose.printCacheOutcome(response.info, if: context.verbose)
        Verbose.printResponse(response.head, info: response.info, if: context.verbose)
        let code = response.status.code
        if context.fail && code >= 400 { throw TransferFailure.httpError(code) }
        if context.include { try Output.writeStandardOutput(Output.headText(response.head)) }
        let path: String
        switch target.destination {
        case .standardOutput:
            if response.info.finalRequest.method != .head { try Output.writeStandardOutput(response.body) }
            if context.include, let trailers = response.trailers {
                try Output.writeStandardOutput(Output.trailerText(trailers))
            }
            return
        case .device(let device):
            try Output.replaceFile(device, with: response.body, device: true)
            return
        case .file(let file):
            path = file
        }
        let saved = (200..<300).contains(code) || (code == 416 && target.resumes)
        if !saved && !target.resumes {
            // curl saves an error page too; the library keeps only 2xx bodies in files.
            try Output.replaceFile(path, with: response.body)
        } else if saved && !target.resumes && record.snapshot.downloaded == 0 && !response.info.isFromCache {
            // An empty body still makes an (empty) file, as in curl; a body from the cache moved no network bytes
            // but the library has saved it.
            try Output.replaceFile(path, with: [])
        }
    }
}
