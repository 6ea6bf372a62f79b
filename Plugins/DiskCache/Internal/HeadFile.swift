import FoundationEssentials
import HTTPCore

/// The on-disk form of an entry's head: what the store needs to find the body, and the ``CachedResponseHead``.
///
/// Layout (integers little-endian): the magic `ASIDCH`, a 2-byte format version, a 4-byte payload length, the
/// payload, and the SHA-256 of everything before it. A file of any other length, magic, version or checksum,
/// or whose payload does not parse to the end, is not a head: a truncated or corrupt file never decodes.
struct HeadFile: Equatable {
    static let magic = Array("ASIDCH".utf8)
    static let version: UInt16 = 1
    /// The largest head file read back; a longer one is corrupt, so none is written.
    static let maxSize = 1 << 20

    /// Whether the head file for `head` under `key` is small enough to be read back (``maxSize``).
    static func fits(key: String, head: CachedResponseHead) -> Bool {
        HeadFile(key: key, bodyName: CacheDirectory.randomName(), bodyLength: 0, head: head).encoded().count <= maxSize
    }

    /// The cache key, kept to rule out a hash collision and to make files self-describing.
    var key: String
    /// The body file's version name (`<hash>.<bodyName>.body`).
    var bodyName: String
    /// The body's length in bytes.
    var bodyLength: Int64
    var head: CachedResponseHead

    func encoded() -> [UInt8] {
        var payload = ByteWriter()
        payload.string(key)
        payload.string(bodyName)
        payload.uint64(UInt64(bitPattern: bodyLength))
        payload.uint16(UInt16(clamping: head.status.code))
        payload.string(head.status.reasonPhrase)
        payload.uint64(head.storedAt.timeIntervalSinceReferenceDate.bitPattern)
        payload.uint8(head.expiresAt == nil ? 0 : 1)
        payload.uint64(head.expiresAt?.timeIntervalSinceReferenceDate.bitPattern ?? 0)
        payload.uint8(head.storagePolicy == .permanent ? 1 : 0)
        payload.fields(head.headerFields)
        payload.fields(head.varyingRequestFields)
        var file = ByteWriter()
        file.bytes.append(contentsOf: Self.magic)
        file.uint16(Self.version)
        file.uint32(UInt32(payload.bytes.count))
        file.bytes.append(contentsOf: payload.bytes)
        file.bytes.append(contentsOf: SHA256.digest(file.bytes))
        return file.bytes
    }

    /// Decodes a head file, or `nil` when the bytes are not a complete, intact head of this format.
    init?(decoding bytes: [UInt8]) {
        let prefix = Self.magic.count + 6
        guard bytes.count >= prefix + 32, Array(bytes[0..<Self.magic.count]) == Self.magic else { return nil }
        var reader = ByteReader(bytes: bytes[0..<prefix], offset: Self.magic.count)
        guard reader.uint16() == Self.version, let length = reader.uint32(),
            bytes.count == prefix + Int(length) + 32
        else { return nil }
        let end = prefix + Int(length)
        guard SHA256.digest(Array(bytes[0..<end])) == Array(bytes[end...]) else { return nil }
        var payload = ByteReader(bytes: bytes[prefix..<end], offset: prefix)
        guard let key = payload.string(), let bodyName = payload.string(), let length = payload.uint64(),
            let code = payload.uint16(), let reason = payload.string(), let stored = payload.uint64(),
            let hasExpiry = payload.uint8(), let expires = payload.uint64(), let policy = payload.uint8(),
            let fields = payload.fields(), let varying = payload.fields(), payload.isAtEnd,
            Int64(bitPattern: length) >= 0, policy <= 1, hasExpiry <= 1,
            (100...999).contains(code),  // HTTPResponse.Status traps outside 0...999
            Double(bitPattern: stored).isFinite, hasExpiry == 0 || Double(bitPattern: expires).isFinite
        else { return nil }
        self.key = key
        self.bodyName = bodyName
        self.bodyLength = Int64(bitPattern: length)
        self.head = CachedResponseHead(
            status: HTTPResponse.Status(code: Int(code), reasonPhrase: reason), headerFields: fields,
            storedAt: Date(timeIntervalSinceReferenceDate: Double(bitPattern: stored)),
            expiresAt: hasExpiry == 1 ? Date(timeIntervalSinceReferenceDate: Double(bitPattern: expires)) : nil,
            storagePolicy: policy == 1 ? .permanent : .sessionDuration, varyingRequestFields: varying)
    }

    init(key: String, bodyName: String, bodyLength: Int64, head: CachedResponseHead) {
        self.key = key
        self.bodyName = bodyName
        self.bodyLength = bodyLength
        self.head = head
    }
}
