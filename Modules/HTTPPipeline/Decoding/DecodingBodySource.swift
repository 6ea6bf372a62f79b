import HTTPCore
import Synchronization

/// Inflates a response body as it is read (`shouldWaitToInflateCompressedResponses = NO`): each chunk from the
/// base is decoded at once, and the decoder's end check runs when the base ends, so a truncated or corrupt body
/// throws ``ClientError/Code/compressionFailed`` instead of ending early.
final class DecodingBodySource: ResponseBodySource {
    private let base: any ResponseBodySource
    // The decoder, or nil once finished; used under the lock by one reader at a time.
    private let decoder: Mutex<(any ContentDecoder)?>

    init(base: any ResponseBodySource, decoder: sending any ContentDecoder) {
        self.base = base
        self.decoder = Mutex(decoder)
    }

    func next() async throws -> [UInt8]? {
        do {
            return try await nextDecoded()
        } catch let error as ClientError where error.stage == .codec {
            // A body that does not decode is given up: its connection is freed and a cache writer is aborted.
            await discard()
            throw error
        }
    }

    private func nextDecoded() async throws -> [UInt8]? {
        while true {
            guard let chunk = try await base.next() else {
                let rest = try codecStaged {
                    try decoder.withLock { decoder -> [UInt8] in
                        defer { decoder = nil }
                        return try decoder?.finish() ?? []
                    }
                }
                return rest.isEmpty ? nil : rest
            }
            let decoded = try codecStaged {
                try decoder.withLock { decoder -> [UInt8] in
                    guard let decoder else { return [] }
                    return try decoder.decode(chunk)
                }
            }
            if !decoded.isEmpty { return decoded }
        }
    }

    func discard() async {
        decoder.withLock { $0 = nil }
        await base.discard()
    }
}

/// Runs a codec call and names ``ClientError/Stage/codec`` in its errors, where no stage is set yet.
func codecStaged<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch var error as ClientError {
        if error.stage == nil { error.stage = .codec }
        throw error
    } catch {
        throw ClientError(.compressionFailed, stage: .codec, message: "Content coding failed", underlying: error)
    }
}

extension ResponseBody {
    /// The body decoded with `decoder` as it is read; the length is unknown.
    func decoded(with decoder: sending any ContentDecoder) -> ResponseBody {
        ResponseBody(expectedLength: nil, source: DecodingBodySource(base: source, decoder: decoder))
    }
}
