import HTTPCore

extension HTTP1FramingRules {
    /// The framing-relevant fields of a head, gathered in one pass over the raw value bytes.
    struct FieldSummary {
        var hasContentLength = false
        var contentLength: Int64 = 0
        var contentLengthError: String?
        /// Whether `Transfer-Encoding` named at least one coding.
        var hasTransferEncoding = false
        var finalCodingIsChunked = false
        var connectionClose = false
        var connectionKeepAlive = false
        var keepAliveTimeout: Int?
        var keepAliveMax: Int?

        /// A summary of no fields; ``add(name:value:)`` adds one field at a time, as a parser reads them.
        init() {}

        /// Summarizes `fields` in one pass.
        init(_ fields: HTTPFields) {
            for field in fields {
                var name = field.name.rawName
                name.withUTF8 { name in
                    field.withUnsafeBytesOfValue { value in
                        add(name: UnsafeRawBufferPointer(name), value: UnsafeRawBufferPointer(value))
                    }
                }
            }
        }

        /// Adds one field, named and valued by its raw bytes as received (the name in any case); fields that do
        /// not bear on framing or reuse cost one length comparison.
        @inline(__always)
        mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            let count = name.count
            guard count == 10 || count == 14 || count == 17 else { return }
            addFraming(
                name: name.assumingMemoryBound(to: UInt8.self), value: value.assumingMemoryBound(to: UInt8.self))
        }

        private mutating func addFraming(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            switch name.count {
            case 14 where HTTP1Syntax.equalsIgnoringCase(name, "content-length"):
                addContentLength(value)
            case 17 where HTTP1Syntax.equalsIgnoringCase(name, "transfer-encoding"):
                addTransferEncoding(value)
            case 10 where HTTP1Syntax.equalsIgnoringCase(name, "connection"):
                addConnection(value)
            case 10 where HTTP1Syntax.equalsIgnoringCase(name, "keep-alive"):
                addKeepAlive(value)
            default:
                return
            }
        }

        private mutating func addContentLength(_ value: UnsafeBufferPointer<UInt8>) {
            var sawElement = false
            HTTP1Syntax.forEachListElement(value) { element in
                sawElement = true
                guard let length = HTTP1Syntax.decimal(element) else {
                    contentLengthError = contentLengthError ?? "invalid Content-Length"
                    return
                }
                if hasContentLength && length != contentLength {
                    contentLengthError = contentLengthError ?? "conflicting Content-Length values"
                }
                hasContentLength = true
                contentLength = length
            }
            if !sawElement { contentLengthError = contentLengthError ?? "empty Content-Length" }
            hasContentLength = true
        }

        private mutating func addTransferEncoding(_ value: UnsafeBufferPointer<UInt8>) {
            HTTP1Syntax.forEachListElement(value) { element in
                // A coding may carry parameters: `gzip;q=1`. Only its name matters here.
                let end = element.firstIndex(of: UInt8(ascii: ";")) ?? element.endIndex
                let coding = HTTP1Syntax.trimmingOWS(UnsafeBufferPointer(rebasing: element[..<end]))
                hasTransferEncoding = true
                finalCodingIsChunked = HTTP1Syntax.equalsIgnoringCase(coding, "chunked")
            }
        }

        private mutating func addConnection(_ value: UnsafeBufferPointer<UInt8>) {
            HTTP1Syntax.forEachListElement(value) { option in
                if HTTP1Syntax.equalsIgnoringCase(option, "close") { connectionClose = true }
                if HTTP1Syntax.equalsIgnoringCase(option, "keep-alive") { connectionKeepAlive = true }
            }
        }

        /// `timeout=T, max=M`; names in any case, values possibly quoted; malformed parameters are ignored.
        private mutating func addKeepAlive(_ value: UnsafeBufferPointer<UInt8>) {
            HTTP1Syntax.forEachListElement(value) { parameter in
                guard let equals = parameter.firstIndex(of: UInt8(ascii: "=")) else { return }
                let key = HTTP1Syntax.trimmingOWS(UnsafeBufferPointer(rebasing: parameter[..<equals]))
                var number = HTTP1Syntax.trimmingOWS(UnsafeBufferPointer(rebasing: parameter[(equals + 1)...]))
                let quote = UInt8(ascii: "\"")
                if number.count >= 2, number.first == quote, number.last == quote {
                    number = UnsafeBufferPointer(rebasing: number.dropFirst().dropLast())
                }
                guard let parsed = HTTP1Syntax.decimal(number) else { return }
                if HTTP1Syntax.equalsIgnoringCase(key, "timeout") { keepAliveTimeout = Int(clamping: parsed) }
                if HTTP1Syntax.equalsIgnoringCase(key, "max") { keepAliveMax = Int(clamping: parsed) }
            }
        }
    }
}
