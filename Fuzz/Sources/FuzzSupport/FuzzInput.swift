import CFuzzDriver
public import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

/// The bytes libFuzzer hands a target, with helpers to derive choices (split points, flags) from them.
public struct FuzzInput {
    /// All input bytes.
    public let bytes: [UInt8]

    /// Copies libFuzzer's buffer.
    /// - Parameters:
    ///   - data: The input's first byte.
    ///   - size: The input's length.
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Splits `payload` into consecutive pieces whose lengths come from `seed` bytes, so one input exercises a
    /// parser fed in arbitrary fragments (including empty ones). Reproducible for a given input.
    /// - Parameters:
    ///   - payload: The bytes to split.
    ///   - seed: Bytes choosing the piece lengths, used in turn (a piece takes all that is left once they run out).
    /// - Returns: The pieces; concatenated they are `payload`.
    public static func split(_ payload: ArraySlice<UInt8>, by seed: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = payload.startIndex
        var seeds = seed.makeIterator()
        while start < payload.endIndex {
            guard let next = seeds.next() else { break }
            // Small pieces are the interesting ones: lengths 0...63 with a few larger ones.
            let length = next < 224 ? Int(next % 64) : Int(next) * 16
            let end = min(payload.endIndex, start + length)
            pieces.append(payload[start..<end])
            start = end
        }
        pieces.append(payload[start...])
        return pieces
    }

    /// Separates a control prefix from the payload: the first byte says how many following bytes are control
    /// bytes (at most 15), the rest is the payload.
    /// - Returns: The control bytes and the payload.
    public func controlAndPayload() -> (control: ArraySlice<UInt8>, payload: ArraySlice<UInt8>) {
        guard let first = bytes.first else { return ([], []) }
        let count = min(Int(first & 0x0F), bytes.count - 1)
        return (bytes[1..<(1 + count)], bytes[(1 + count)...])
    }
}

/// Stops the fuzzer with a message when an invariant breaks (a crash libFuzzer records with its input).
/// - Parameters:
///   - condition: The invariant.
///   - message: What broke.
public func fuzzCheck(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant broken: \(message())") }
}

/// Checks that an error thrown by a parser is a ``ClientError`` (with one of `codes` when given).
/// - Parameters:
///   - error: The thrown error.
///   - codes: The codes allowed, or empty for any.
public func fuzzCheckClientError(_ error: any Error, codes: [ClientError.Code] = []) {
    guard let clientError = error as? ClientError else { fatalError("a parser threw a non-ClientError: \(error)") }
    fuzzCheck(codes.isEmpty || codes.contains(clientError.code), "unexpected ClientError code: \(clientError)")
}

/// Runs libFuzzer's driver with the process's command line (libFuzzer's flags and corpus directories) and exits
/// with its status. Call it from a fuzz target's top-level code.
/// - Parameter test: Called with every input; returns 0 (libFuzzer reserves other values).
public func runLibFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
