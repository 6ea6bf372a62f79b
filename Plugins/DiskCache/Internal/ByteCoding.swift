import HTTPCore

/// Appends little-endian integers, length-prefixed strings and header fields to a byte buffer.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func uint8(_ value: UInt8) { bytes.append(value) }
    mutating func uint16(_ value: UInt16) { integer(value) }
    mutating func uint32(_ value: UInt32) { integer(value) }
    mutating func uint64(_ value: UInt64) { integer(value) }

    private mutating func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        data(Array(value.utf8))
    }

    mutating func data(_ value: [UInt8]) {
        uint32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// The count, then each field's name as received and its value's bytes (which need not be UTF-8).
    mutating func fields(_ fields: HTTPFields) {
        uint32(UInt32(fields.count))
        for field in fields {
            string(field.name.rawName)
            data(field.withUnsafeBytesOfValue { Array($0) })
        }
    }
}

/// Reads what ``ByteWriter`` wrote; every read returns `nil` past the end or on malformed data.
struct ByteReader {
    let bytes: ArraySlice<UInt8>
    var offset: Int

    init(bytes: ArraySlice<UInt8>, offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.endIndex }

    mutating func uint8() -> UInt8? { integer() }
    mutating func uint16() -> UInt16? { integer() }
    mutating func uint32() -> UInt32? { integer() }
    mutating func uint64() -> UInt64? { integer() }

    private mutating func integer<T: FixedWidthInteger>() -> T? {
        let size = MemoryLayout<T>.size
        guard bytes.endIndex - offset >= size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    mutating func string() -> String? {
        data().flatMap { String(validating: $0, as: UTF8.self) }
    }

    mutating func data() -> ArraySlice<UInt8>? {
        guard let count = uint32().map(Int.init), bytes.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func fields() -> HTTPFields? {
        guard let count = uint32(), Int(count) <= (bytes.endIndex - offset) / 8 else { return nil }
        var fields = HTTPFields()
        for _ in 0..<count {
            guard let rawName = string(), let name = HTTPField.Name(rawName), let value = data() else { return nil }
            fields.append(HTTPField(name: name, lenientValue: value))
        }
        return fields
    }
}
