// Fuzzes HTTP1ResponseParser (status line, fields, framing, chunked decoding, trailers, pipelined responses).
//
// Input: byte 0's low nibble counts control bytes; control byte 0 picks the request method, the others pick the
// split points. The payload is parsed twice, once whole and once in the split pieces, then EOF.
// Invariants: errors are ClientErrors with a framing code; body bytes never exceed input bytes; a Content-Length
// body ends with exactly that many bytes; the split parse yields the same messages as the whole parse.
import FuzzSupport
import HTTPCore
@testable import SocketTransport

/// What a parse produced, comparable between splittings.
struct Outcome: Equatable {
    struct Message: Equatable {
        var statuses: [Int] = []
        var body: [UInt8] = []
        var ended = false
    }
    var messages: [Message] = []
    var failed = false
}

func run(_ pieces: [ArraySlice<UInt8>], method: HTTPRequest.Method, inputCount: Int) -> Outcome {
    var parser = HTTP1ResponseParser(limits: HTTP1Limits(maxHeadBytes: 4096, maxHeaderCount: 20, maxLineLength: 1024))
    var outcome = Outcome()
    var current = Outcome.Message()
    var announced: Int64?
    var bodyTotal = 0
    parser.expectResponse(toMethod: method)

    func take(_ events: [HTTP1Event]) {
        for event in events {
            switch event {
            case .head(let head):
                fuzzCheck((100...999).contains(head.status.code), "status \(head.status.code)")
                current.statuses.append(head.status.code)
                if !head.isInformational, case .contentLength(let length) = head.framing {
                    fuzzCheck(length >= 0, "negative Content-Length \(length)")
                    announced = length
                }
            case .body(let bytes):
                fuzzCheck(!bytes.isEmpty, "empty body event")
                current.body += bytes
                bodyTotal += bytes.count
                fuzzCheck(bodyTotal <= inputCount, "more body bytes (\(bodyTotal)) than input (\(inputCount))")
            case .end:
                if let announced {
                    fuzzCheck(Int64(current.body.count) == announced, "body \(current.body.count) != \(announced)")
                }
                current.ended = true
                outcome.messages.append(current)
                current = Outcome.Message()
                announced = nil
            }
        }
    }

    /// After a message ends, expect the next one (pipelined responses) unless the connection was upgraded.
    func nextIfEnded() throws {
        while parser.state == .awaitingRequest, parser.hasBufferedBytes {
            parser.expectResponse(toMethod: .get)
            take(try parser.feed(UnsafeRawBufferPointer(start: nil, count: 0)))
        }
    }

    do {
        for piece in pieces {
            try piece.withUnsafeBytes { take(try parser.feed($0)) }
            try nextIfEnded()
        }
        take(try parser.feedEOF())
    } catch {
        fuzzCheckClientError(error, codes: [.protocolViolation, .connectFailed, .incompleteBody, .emptyResponse])
        outcome.failed = true
        // A failed parser stays failed.
        do {
            _ = try parser.feed(UnsafeRawBufferPointer(start: nil, count: 0))
            fuzzCheck(false, "a failed parser accepted more input")
        } catch {
            fuzzCheckClientError(error)
        }
    }
    if !current.statuses.isEmpty || !current.body.isEmpty { outcome.messages.append(current) }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let (control, payload) = input.controlAndPayload()
    let methods: [HTTPRequest.Method] = [.get, .get, .head, .connect, .post]
    let method = methods[Int(control.first ?? 0) % methods.count]
    let whole = run([payload], method: method, inputCount: payload.count)
    let split = run(FuzzInput.split(payload, by: control.dropFirst()), method: method, inputCount: payload.count)
    fuzzCheck(whole.failed == split.failed, "whole and split parses disagree on failure: \(whole) vs \(split)")
    if !whole.failed { fuzzCheck(whole == split, "whole and split parses differ: \(whole) vs \(split)") }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
