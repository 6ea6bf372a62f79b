import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTP1ResponseParser {
    /// Parses `HTTP/1.x NNN reason`; the reason and the space before it may be missing.
    mutating func parseStatusLine(_ line: UnsafeRawBufferPointer) throws {
        guard line.count >= 12, line[8] == HTTP1Syntax.sp, line.count == 12 || line[12] == HTTP1Syntax.sp,
            line[0..<5].elementsEqual("HTTP/".utf8),
            line[6] == UInt8(ascii: "."),
            let major = digit(line[5]), let minor = digit(line[7])
        else {
            throw HTTP1Syntax.violation("malformed status line")
        }
        guard major == 1 else {
            throw HTTP1Syntax.violation("unsupported version HTTP/\(major).\(minor) in the status line")
        }
        guard let hundreds = digit(line[9]), let tens = digit(line[10]), let ones = digit(line[11]) else {
            throw HTTP1Syntax.violation("the status code is not three digits")
        }
        let code = hundreds * 100 + tens * 10 + ones
        guard code >= 100 else {
            throw HTTP1Syntax.violation("status code \(hundreds)\(tens)\(ones) is out of range")
        }
        let reason = UnsafeRawBufferPointer(rebasing: line[min(13, line.count)...])
        if reason.contains(HTTP1Syntax.cr) || reason.contains(0) {
            throw HTTP1Syntax.violation("the reason phrase contains a CR or NUL byte")
        }
        headVersion = HTTPVersion(major: major, minor: minor)
        fieldsRepeat = previousHead != nil
        statusRepeats = false
        if let previous = previousStatus, previous.code == code, Self.equal(previous.reasonPhrase, reason) {
            statusRepeats = true
            headStatus = previous
        } else {
            headStatus = HTTPResponse.Status(code: code, reasonPhrase: String(decoding: reason, as: UTF8.self))
        }
        // No capacity reserved up front: the list keeps what the connection's heads needed, and a reserve of 16
        // fields (about 2 KB) per connection showed in the 1,000-connection row's memory (decision 0038).
        sectionFields.removeAll(keepingCapacity: true)
        framingSummary = HTTP1FramingRules.FieldSummary()
        framingSummaryIsStale = false
        state = .headerLines
    }

    /// Whether a string's UTF-8 bytes are `bytes`.
    static func equal(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            utf8.count == bytes.count
                && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
    }

    /// Whether `field` is `name: value` as received.
    static func field(_ field: HTTPField, is name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool {
        guard equal(field.name.rawName, name) else { return false }
        return field.withUnsafeBytesOfValue { stored in
            stored.count == value.count
                && (value.isEmpty || memcmp(stored.baseAddress!, value.baseAddress!, value.count) == 0)
        }
    }

    /// Parses `name: value` into ``sectionFields``, or unfolds an obs-fold continuation line.
    mutating func parseFieldLine(_ line: UnsafeRawBufferPointer, trailer: Bool) throws {
        let kind = trailer ? "trailer" : "header"
        if HTTP1Syntax.isOWS(line[0]) {
            try unfold(line, kind: kind)
            return
        }
        var colon = 0
        while colon < line.count, HTTP1Syntax.isToken(line[colon]) { colon += 1 }
        guard colon < line.count, line[colon] == HTTP1Syntax.colon, colon > 0 else {
            if colon == line.count {
                throw HTTP1Syntax.violation("\(kind) line without a colon")
            } else if HTTP1Syntax.isOWS(line[colon]) {
                throw HTTP1Syntax.violation("whitespace between a \(kind) field name and its colon")
            } else {
                throw HTTP1Syntax.violation("invalid character in a \(kind) field name")
            }
        }
        guard sectionFields.count < limits.maxHeaderCount else {
            throw HTTP1Syntax.violation("more than \(limits.maxHeaderCount) \(kind) fields")
        }
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[..<colon])
        let value = HTTP1Syntax.trimmingOWS(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        let plain = try checkFieldValue(value, kind: kind)
        if !trailer { framingSummary.add(name: nameBytes, value: value) }
        // The previous head's field at the same position: the same field is reused whole, the same name alone.
        var repeatedName: HTTPField.Name?
        if !trailer, sectionFields.count < previousFields.count {
            let candidate = previousFields[sectionFields.count]
            if Self.field(candidate, is: nameBytes, value) {
                sectionFields.append(candidate)
                return
            }
            if Self.equal(candidate.name.rawName, nameBytes) { repeatedName = candidate.name }
        }
        fieldsRepeat = false
        let name = try repeatedName ?? HTTP1KnownFieldNames.name(for: nameBytes)
        if plain {
            // Plain printable ASCII, the common case: a String is valid as is (no generic UTF-8 validation).
            sectionFields.append(HTTPField(name: name, value: String(decoding: value, as: UTF8.self)))
        } else {
            // Non-ASCII or control bytes: HTTPTypes keeps the raw bytes and turns controls into spaces.
            sectionFields.append(HTTPField(name: name, value: value.assumingMemoryBound(to: UInt8.self)))
        }
    }

    /// Joins a continuation line to the previous field's value with one space (RFC 9112 §5.2).
    private mutating func unfold(_ line: UnsafeRawBufferPointer, kind: String) throws {
        guard !sectionFields.isEmpty else {
            throw HTTP1Syntax.violation("the \(kind) section starts with whitespace")
        }
        let value = HTTP1Syntax.trimmingOWS(line)
        guard !value.isEmpty else { return }
        try checkFieldValue(value, kind: kind)
        fieldsRepeat = false
        framingSummaryIsStale = true
        let last = sectionFields.count - 1
        let continuation = String(decoding: value, as: UTF8.self)
        let previous = sectionFields[last].value
        sectionFields[last].value = previous.isEmpty ? continuation : previous + " " + continuation
    }

    /// Throws for a CR or NUL byte; returns whether the value is all printable ASCII, SP and HTAB.
    @discardableResult
    private func checkFieldValue(_ value: UnsafeRawBufferPointer, kind: String) throws -> Bool {
        var plain = true
        for byte in value where byte < HTTP1Syntax.sp || byte >= 0x7F {
            if byte == HTTP1Syntax.cr || byte == 0 {
                throw HTTP1Syntax.violation("a \(kind) field value contains a CR or NUL byte")
            }
            if byte != HTTP1Syntax.htab { plain = false }
        }
        return plain
    }

    /// Emits the head (and `.end` when there is no body) and moves to the body state.
    mutating func finishHead(into events: inout [HTTP1Event]) throws {
        var response = statusRepeats ? previousHead! : HTTPResponse(status: headStatus)
        // `fieldsRepeat` is only ever set while there is a previous head, whose fields `previousFields` holds.
        let fieldsAreRepeated = fieldsRepeat && sectionFields.count == previousFields.count
        if fieldsAreRepeated {
            // Every field repeats the previous head's: its list is handed out again.
            response.headerFields = previousFields
        } else {
            response.headerFields = Self.fields(sectionFields)
        }
        sectionBytes = 0
        let code = headStatus.code
        if code == 101 && !upgradeRequested {
            throw HTTP1Syntax.violation("a 101 (Switching Protocols) answers a request that asked for no upgrade")
        }
        if code >= 100 && code < 200 && code != 101 {
            interimCount += 1
            guard interimCount <= limits.maxInterimResponses else {
                throw HTTP1Syntax.violation("more than \(limits.maxInterimResponses) interim (1xx) responses")
            }
            events.append(
                .head(
                    HTTP1ResponseHead(
                        head: ResponseHead(response, version: headVersion),
                        framing: .none, keepAlive: false,
                        keepAliveTimeout: nil, keepAliveMax: nil, isInformational: true)))
            state = .statusLine
            return
        }
        if framingSummaryIsStale { framingSummary = HTTP1FramingRules.FieldSummary(response.headerFields) }
        let decision = try HTTP1FramingRules.decide(
            version: headVersion, status: headStatus, summary: framingSummary, requestMethod: requestMethod)
        previousHead = response
        previousStatus = headStatus
        // This head's fields become the ones the next head is compared with (shared, not copied).
        if !fieldsAreRepeated { previousFields = response.headerFields }
        sectionFields.removeAll(keepingCapacity: true)
        events.append(
            .head(
                HTTP1ResponseHead(
                    head: ResponseHead(response, version: headVersion),
                    framing: decision.framing,
                    keepAlive: decision.keepAlive, keepAliveTimeout: decision.keepAliveTimeout,
                    keepAliveMax: decision.keepAliveMax, isInformational: false)))
        switch decision.framing {
        case .none:
            finishMessage(trailers: nil, into: &events)
            if decision.leavesHTTP { state = .upgraded }
        case .contentLength(let length):
            announcedLength = length
            if length == 0 {
                finishMessage(trailers: nil, into: &events)
            } else {
                state = .fixedBody(remaining: length)
            }
        case .chunked:
            state = .chunkSize
        case .closeDelimited:
            state = .closeDelimited
        }
    }

    /// Parses `<hex>[;extensions]`; a size of 0 starts the trailer section.
    mutating func parseChunkSizeLine(_ line: UnsafeRawBufferPointer, into events: inout [HTTP1Event]) throws {
        var size: Int64 = 0
        var index = 0
        while index < line.count, let value = HTTP1Syntax.hexValue(line[index]) {
            guard index < HTTP1Limits.maxChunkSizeDigits else {
                throw HTTP1Syntax.violation("chunk size longer than \(HTTP1Limits.maxChunkSizeDigits) hex digits")
            }
            guard size <= Int64.max >> 4 else { throw HTTP1Syntax.violation("chunk size overflows") }
            size = size << 4 | Int64(value)
            index += 1
        }
        guard index > 0, Self.areChunkExtensions(line, from: index) else {
            throw HTTP1Syntax.violation("invalid chunk size line")
        }
        if size == 0 {
            state = .trailers
            sectionBytes = 0
            sectionFields.removeAll(keepingCapacity: true)
        } else {
            state = .chunkData(remaining: size)
        }
    }

    /// Whether `line[start...]` is RFC 9112's `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`:
    /// whitespace after the size only before a `;`, and every `;` followed by a name (llhttp's strict rules; a
    /// lenient reading here is where request-smuggling parsers disagree).
    static func areChunkExtensions(_ line: UnsafeRawBufferPointer, from start: Int) -> Bool {
        var index = start
        func skipWhitespace() { while index < line.count, HTTP1Syntax.isOWS(line[index]) { index += 1 } }
        func skipToken() -> Bool {
            let first = index
            while index < line.count, HTTP1Syntax.isToken(line[index]) { index += 1 }
            return index > first
        }
        while index < line.count {
            skipWhitespace()
            guard index < line.count, line[index] == UInt8(ascii: ";") else { return false }
            index += 1
            skipWhitespace()
            guard skipToken() else { return false }
            skipWhitespace()
            guard index < line.count, line[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipWhitespace()
            if index < line.count, line[index] == UInt8(ascii: "\"") {
                guard skipQuotedString() else { return false }
            } else if !skipToken() {
                return false
            }
            skipWhitespace()
        }
        return true

        func skipQuotedString() -> Bool {
            index += 1
            while index < line.count {
                switch line[index] {
                case UInt8(ascii: "\""): index += 1; return true
                case UInt8(ascii: "\\"):  // quoted-pair: HTAB, SP, VCHAR or obs-text, never a control byte
                    guard index + 1 < line.count, Self.isQuotable(line[index + 1]) else { return false }
                    index += 2
                case let byte where !Self.isQuotable(byte): return false
                default: index += 1
                }
            }
            return false
        }
    }

    /// Whether a byte may stand in a quoted string or a quoted-pair (RFC 9110 §5.6.4): HTAB, SP, VCHAR, obs-text.
    static func isQuotable(_ byte: UInt8) -> Bool {
        byte == HTTP1Syntax.htab || byte >= HTTP1Syntax.sp && byte != 0x7F
    }

    /// Emits `.end` with the trailers (or `nil` when there were none).
    mutating func finishTrailers(into events: inout [HTTP1Event]) {
        let fields = Self.fields(sectionFields)
        sectionFields.removeAll(keepingCapacity: true)
        if !fields.isEmpty { trailers = fields }
        finishMessage(trailers: fields.isEmpty ? nil : fields, into: &events)
    }

    /// `list` as `HTTPFields`, built in one pass with its capacity reserved.
    static func fields(_ list: [HTTPField]) -> HTTPFields {
        var fields = HTTPFields()
        fields.reserveCapacity(list.count)
        fields.append(contentsOf: list)
        return fields
    }

    @inline(__always)
    private func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte &- 0x30) : nil
    }
}
