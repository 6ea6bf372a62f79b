import Glibc
import HTTPCore

/// `-T -`: the body read from standard input as it arrives, sent chunked (its length is unknown), as curl does.
///
/// Standard input can be read only once, so the body is a one-time stream: a challenge, redirect or retry that
/// needs it again ends the transfer with exit 25 rather than sending it short. Each read blocks its thread until
/// input arrives; for this command-line tool that is what a pipe's reader does.
enum StandardInputBody {
    /// The body.
    static func make() -> RequestBody {
        .stream(length: nil, isReplayable: false) {
            RequestBody.Chunks {
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count > 0 { return Array(buffer[..<count]) }
                    if count == 0 { return nil }
                    guard errno == EINTR else {
                        throw ClientError(.storageFailed, message: "Cannot read standard input",
                                          underlying: SyscallError.last("read"))
                    }
                }
            }
        }
    }
}
