import HTTPCore

/// Why a transfer failed, with curl's exit code for the same failure.
///
/// | Exit | curl's name                 | ASIKit cause                                                   |
/// |------|-----------------------------|----------------------------------------------------------------|
/// | 3    | URL malformed               | an unparsable URL, `invalidRequest`                            |
/// | 6    | couldn't resolve host       | `nameResolutionFailed`                                         |
/// | 7    | couldn't connect            | `connectFailed`                                                |
/// | 8    | weird server reply          | `protocolViolation`                                            |
/// | 18   | partial file                | `incompleteBody`: the connection closed before the body ended  |
/// | 22   | HTTP returned error         | status 400 or more with `--fail`                               |
/// | 23   | write error                 | `storageFailed` while saving, stdout closed, no remote name    |
/// | 25   | upload failed               | `uploadFailed`: a one-time body needed again, chunked to 1.0   |
/// | 26   | read error                  | a file to upload cannot be read                                |
/// | 28   | operation timed out         | `timedOut`, or `-m` elapsed                                    |
/// | 35   | SSL connect error           | `tlsHandshakeFailed`                                           |
/// | 42   | aborted by callback         | `cancelled`                                                    |
/// | 43   | internal error              | `internalError`                                                |
/// | 47   | too many redirects          | `tooManyRedirects`                                             |
/// | 58   | problem with local cert     | `invalidConfiguration` (certificate, key or CA file)           |
/// | 52   | got nothing                 | `emptyResponse`: the server closed without answering           |
/// | 55   | failed sending network data | `sendFailed`: the connection broke while sending, no answer    |
/// | 56   | failure receiving data      | `receiveFailed`: reset while the answer was awaited or read    |
/// | 60   | peer certificate problem    | `certificateInvalid`                                           |
/// | 61   | bad content encoding        | `compressionFailed`                                            |
/// | 67   | login denied                | `authenticationFailed`                                         |
/// | 90   | pinned public key mismatch  | `publicKeyPinMismatch`; a `--pinnedpubkey` that cannot be read |
/// | 92   | HTTP/2 stream error         | `streamReset`: the server reset the transfer's stream          |
struct TransferFailure: Error, Sendable {
    /// The process exit code.
    var exitCode: Int32
    /// What to print after `asi: (code)`; never contains credentials.
    var message: String

    init(_ exitCode: Int32, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    /// The failure for an error from the library.
    init(_ error: any Error) {
        switch error {
        case let failure as TransferFailure:
            self = failure
        case let error as ClientError:
            self.init(Self.exitCode(for: error.code), error.description)
        case is CancellationError:
            self.init(42, "The transfer was cancelled")
        default:
            self.init(43, "Unexpected error: \(error)")
        }
    }

    /// curl's exit code for a ``ClientError`` code.
    static func exitCode(for code: ClientError.Code) -> Int32 {
        switch code {
        case .invalidRequest: 3
        case .nameResolutionFailed: 6
        case .connectFailed: 7
        case .protocolViolation: 8
        case .incompleteBody: 18
        case .storageFailed: 23
        case .uploadFailed: 25
        case .timedOut: 28
        case .tlsHandshakeFailed: 35
        case .cancelled: 42
        case .tooManyRedirects: 47
        case .emptyResponse: 52
        case .sendFailed: 55
        case .receiveFailed: 56
        case .streamReset: 92
        case .invalidConfiguration: 58
        case .certificateInvalid: 60
        case .compressionFailed: 61
        case .authenticationFailed: 67
        case .publicKeyPinMismatch: 90
        default: 43
        }
    }

    /// `-m` elapsed.
    static func maxTimeElapsed(_ seconds: Double) -> TransferFailure {
        TransferFailure(28, "Operation timed out: -m \(seconds) seconds elapsed")
    }

    /// A file to send could not be read.
    static func readFailed(_ error: any Error) -> TransferFailure {
        TransferFailure(26, "Cannot read the file to send: \((error as? ClientError)?.message ?? "\(error)")")
    }

    /// The server answered with an error status and `--fail` was given.
    static func httpError(_ code: Int) -> TransferFailure {
        TransferFailure(22, "The requested URL returned error: \(code)")
    }
}
