import HTTPCore

/// Byte-level helpers shared by the HTTP/1.1 serializer and parser.
enum HTTP1Syntax {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let sp: UInt8 = 0x20
    static let htab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let crlf: [UInt8] = [0x0D, 0x0A]

    // tchar (RFC 9110 §5.6.2) as two 64-bit masks: bit n of `tokenLow` is byte n, of `tokenHigh` byte 64 + n.
    // "!#$%&'*+-.^_`|~", digits and letters.
    private static let tokenLow: UInt64 = 0x03FF_6CFA_0000_0000
    private static let tokenHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    /// Whether `byte` may appear in a token (a method or a header field name).
    @inline(__always)
    static func isToken(_ byte: UInt8) -> Bool {
        if byte < 64 { return tokenLow & (1 &<< UInt64(byte)) != 0 }
        if byte < 128 { return tokenHigh & (1 &<< UInt64(byte &- 64)) != 0 }
        return false
    }

    /// Whether `byte` is optional whitespace (SP or HTAB).
    @inline(__always)
    static func isOWS(_ byte: UInt8) -> Bool { byte == sp || byte == htab }

    /// The value of a hexadecimal digit, or `nil`.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? { Hex.value(of: byte) }

    /// `bytes` without leading and trailing SP and HTAB.
    @inline(__always)
    static func trimmingOWS(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isOWS(bytes[start]) { start += 1 }
        while end > start, isOWS(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `bytes` without leading and trailing SP and HTAB.
    @inline(__always)
    static func trimmingOWS(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var start = 0
        var end = bytes.count
        while start < end, isOWS(bytes[start]) { start += 1 }
        while end > start, isOWS(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }

    /// A non-negative decimal number of one or more digits, or `nil` when malformed or above `Int64.max`.
    static func decimal(_ bytes: some Collection<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte &- 0x30))
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    /// Whether two ASCII byte sequences are equal ignoring letter case; `lowercase` must be lowercase.
    static func equalsIgnoringCase(_ bytes: some Collection<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        var index = 0
        for byte in bytes {
            let folded = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            guard folded == expected[index] else { return false }
            index += 1
        }
        return true
    }

    /// Calls `body` with each element of a comma-separated list, trimmed of OWS; empty elements are skipped.
    @inline(__always)
    static func forEachListElement(
        _ value: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
            let element = trimmingOWS(UnsafeBufferPointer(rebasing: value[start..<end]))
            if !element.isEmpty { body(element) }
            start = end + 1
        }
    }

    /// A protocol violation error with `message`.
    static func violation(_ message: String) -> ClientError {
        ClientError(.protocolViolation, stage: .transport, message: message)
    }

    /// The error for a body the connection's end cut short.
    /// - Parameter message: What was missing.
    /// - Returns: A ``ClientError`` with code ``ClientError/Code/incompleteBody``.
    static func incomplete(_ message: String) -> ClientError {
        ClientError(.incompleteBody, stage: .transport, message: message)
    }
}
