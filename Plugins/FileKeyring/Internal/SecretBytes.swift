import Glibc

/// Secret bytes (a derived key, a decrypted payload) in memory of their own: excluded from core dumps
/// (`MADV_DONTDUMP`), locked out of swap when the limit allows (`mlock`), and wiped with `explicit_bzero` before
/// they are freed. Confined to the call that made it; never copied into a Swift array by this module except where
/// a C API needs a pointer.
final class SecretBytes {
    let count: Int
    private let base: UnsafeMutableRawPointer
    private let mapped: Int

    /// Allocates `count` zeroed bytes.
    init(count: Int) {
        self.count = count
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        mapped = max(page, (count + page - 1) / page * page)
        let pointer = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let pointer, pointer != MAP_FAILED else { fatalError("SecretBytes: mmap failed") }
        base = pointer
        _ = madvise(base, mapped, MADV_DONTDUMP)
        _ = mlock(base, mapped)  // best effort: RLIMIT_MEMLOCK may refuse
    }

    /// Copies `bytes` into new secret memory.
    convenience init(copying bytes: some Collection<UInt8>) {
        self.init(count: bytes.count)
        var index = 0
        for byte in bytes {
            base.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
            index += 1
        }
    }

    deinit {
        explicit_bzero(base, mapped)
        _ = munlock(base, mapped)
        _ = munmap(base, mapped)
    }

    /// The bytes as a mutable buffer, for the duration of `body`.
    func withBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: base, count: count))
    }

    /// A slice of the bytes, for the duration of `body`.
    func withBytes<R>(in range: Range<Int>, _ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        precondition(range.lowerBound >= 0 && range.upperBound <= count)
        return try body(UnsafeMutableRawBufferPointer(start: base + range.lowerBound, count: range.count))
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the array's bytes with zeros (best effort: copies Swift made earlier are out of reach).
    mutating func wipe() {
        withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
    }
}
