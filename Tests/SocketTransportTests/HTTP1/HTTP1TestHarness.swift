import HTTPCore
import TestSupport
import Testing

@testable import SocketTransport

/// One parser event (or the error that stopped parsing) in a form that compares across feed splits.
enum ParsedItem: Equatable, CustomStringConvertible {
    case head(Head)
    case body([UInt8])
    case end(trailers: [String]?)
    case error(code: String, message: String)

    struct Head: Equatable {
        var version = "HTTP/1.1"
        var code = 200
        var reason = "OK"
        var fields: [String] = []
        var framing: ResponseFraming = .contentLength(0)
        var keepAlive = true
        var keepAliveTimeout: Int?
        var keepAliveMax: Int?
        var isInformational = false
    }

    init(_ head: HTTP1ResponseHead) {
        self = .head(
            Head(
                version: head.version.description, code: head.status.code, reason: head.status.reasonPhrase,
                fields: head.fields.map { "\($0.name.rawName): \($0.value)" }, framing: head.framing,
                keepAlive: head.keepAlive, keepAliveTimeout: head.keepAliveTimeout, keepAliveMax: head.keepAliveMax,
                isInformational: head.isInformational))
    }

    var description: String {
        switch self {
        case .head(let head): "head(\(head))"
        case .body(let bytes): "body(\(String(decoding: bytes, as: UTF8.self).debugDescription))"
        case .end(let trailers): "end(\(trailers.map { "\($0)" } ?? "nil"))"
        case .error(let code, let message): "error(\(code): \(message))"
        }
    }

    /// A body item from text.
    static func body(_ text: String) -> ParsedItem { .body(Array(text.utf8)) }
    /// A protocol violation whose message is `message`.
    static func violation(_ message: String) -> ParsedItem { .error(code: "protocolViolation", message: message) }
    /// A body cut short by the connection's end, whose message is `message`.
    static func incomplete(_ message: String) -> ParsedItem { .error(code: "incompleteBody", message: message) }
}

/// Drives an ``HTTP1ResponseParser`` the way a transport does, over any split of the input.
struct ParserDriver {
    var methods: [HTTPRequest.Method] = [.get]
    var limits = HTTP1Limits()
    /// Whether the peer closes the connection after the input.
    var eof = false
    /// Whether the requests asked for a protocol upgrade (a 101 is a violation otherwise).
    var upgradeRequested = false

    /// Feeds `input` cut at `cuts` (ascending offsets) and returns the items, adjacent bodies merged.
    func run(_ input: [UInt8], cuts: [Int]) -> [ParsedItem] {
        var parser = HTTP1ResponseParser(limits: limits)
        var pendingMethods = methods[...]
        parser.expectResponse(toMethod: pendingMethods.removeFirst(), upgradeRequested: upgradeRequested)
        var items: [ParsedItem] = []
        func record(_ events: [HTTP1Event]) {
            for event in events {
                switch event {
                case .head(let head): items.append(ParsedItem(head))
                case .body(let bytes):
                    #expect(!bytes.isEmpty, "empty body event")
                    if case .body(let previous) = items.last {
                        items[items.count - 1] = .body(previous + bytes)
                    } else {
                        items.append(.body(bytes))
                    }
                case .end(let trailers):
                    items.append(.end(trailers: trailers.map { $0.map { "\($0.name.rawName): \($0.value)" } }))
                }
            }
        }
        // After an `.end`, the transport sends the next request and re-feeds nothing: held bytes replay.
        func nextRequestIfEnded(_ events: [HTTP1Event]) throws {
            var ended = events.last.map { if case .end = $0 { true } else { false } } ?? false
            while ended, let method = pendingMethods.first {
                pendingMethods.removeFirst()
                parser.expectResponse(toMethod: method, upgradeRequested: upgradeRequested)
                var more: [HTTP1Event] = []
                do {
                    try parser.feed(UnsafeRawBufferPointer(start: nil, count: 0), into: &more)
                } catch {
                    record(more)
                    throw error
                }
                record(more)
                ended = more.last.map { if case .end = $0 { true } else { false } } ?? false
            }
        }
        do {
            var start = 0
            for end in cuts + [input.count] where end >= start {
                var events: [HTTP1Event] = []
                do {
                    try input[start..<end].withUnsafeBytes { try parser.feed($0, into: &events) }
                } catch {
                    record(events)
                    throw error
                }
                record(events)
                try nextRequestIfEnded(events)
                start = end
            }
            if eof {
                var events: [HTTP1Event] = []
                do {
                    try parser.feedEOF(into: &events)
                } catch {
                    record(events)
                    throw error
                }
                record(events)
            }
        } catch let error as ClientError {
            // Body bytes of a failed response are void, and how many were emitted depends on the split.
            while case .body = items.last { items.removeLast() }
            items.append(.error(code: error.code.description, message: error.message))
        } catch {
            items.append(.error(code: "unexpected", message: "\(error)"))
        }
        return items
    }

    /// Feeds `input` whole, one byte at a time and split in two at every offset; every way must give the same
    /// items. Returns the items from the whole feed.
    func runAllSplits(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [ParsedItem] {
        let whole = run(input, cuts: [])
        let bytewise = run(input, cuts: Array(0..<input.count))
        #expect(bytewise == whole, "one byte at a time differs", sourceLocation: sourceLocation)
        for cut in 0...input.count {
            let split = run(input, cuts: [cut])
            if split != whole {
                Issue.record("split at \(cut) differs: \(split) vs \(whole)", sourceLocation: sourceLocation)
                break
            }
        }
        return whole
    }

    /// ``runAllSplits(_:sourceLocation:)`` for text input.
    func runAllSplits(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [ParsedItem] {
        runAllSplits(Array(text.utf8), sourceLocation: sourceLocation)
    }
}

extension ParsedItem {
    /// The head of the first `.head` item, if any.
    static func firstHead(_ items: [ParsedItem]) -> Head? {
        for case .head(let head) in items { return head }
        return nil
    }

    /// The error item, if any.
    static func error(in items: [ParsedItem]) -> (code: String, message: String)? {
        if case .error(let code, let message) = items.last { return (code, message) }
        return nil
    }
}
