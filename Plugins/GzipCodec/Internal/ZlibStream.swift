import CZlib
import HTTPCore

/// A `z_stream` at a stable heap address (zlib keeps a pointer back to it), with an output buffer, freed in
/// `deinit`. Confined to the decoder or encoder that owns it.
final class ZlibStream {
    /// The size of the output buffer each `inflate`/`deflate` call writes into.
    static let bufferSize = 256 * 1024

    let pointer: UnsafeMutablePointer<z_stream>
    /// The output buffer: ``bufferSize`` bytes, or more once ``growBuffer()`` doubled it.
    private(set) var buffer: UnsafeMutableBufferPointer<UInt8>
    private let end: (UnsafeMutablePointer<z_stream>) -> Int32
    private var isOpen = false
    /// The end of the room last given to zlib (``setOutput(from:)``).
    private var outputEnd = 0

    /// Initializes zlib with `initialize` (`inflateInit2` or `deflateInit2`); `end` frees it.
    init(
        initialize: (UnsafeMutablePointer<z_stream>) -> Int32,
        end: @escaping (UnsafeMutablePointer<z_stream>) -> Int32
    ) throws {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: z_stream())
        buffer = .allocate(capacity: Self.bufferSize)
        self.end = end
        let status = initialize(pointer)
        guard status == Z_OK else {
            throw Self.error("zlib could not start", status: status, stream: pointer)
        }
        isOpen = true
    }

    deinit {
        if isOpen { _ = end(pointer) }
        pointer.deinitialize(count: 1)
        pointer.deallocate()
        buffer.deallocate()
    }

    /// Points zlib at `input`; valid only while `input`'s storage is.
    func setInput(_ input: UnsafeBufferPointer<UInt8>) {
        pointer.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        pointer.pointee.avail_in = UInt32(input.count)
    }

    /// Forgets the input pointer after a call returns.
    func clearInput() {
        pointer.pointee.next_in = nil
        pointer.pointee.avail_in = 0
    }

    /// Gives zlib the whole output buffer.
    func resetOutput() {
        setOutput(from: 0)
    }

    /// Gives zlib the output buffer from `offset` on (what lies before it is kept), at most 4 GiB of it at a time,
    /// since zlib counts the room in 32 bits.
    func setOutput(from offset: Int) {
        let room = UInt32(clamping: buffer.count - offset)
        pointer.pointee.next_out = buffer.baseAddress.map { $0 + offset }
        pointer.pointee.avail_out = room
        outputEnd = offset + Int(room)
    }

    /// Doubles the output buffer, keeping its bytes; the buffer then stays that size for the stream's life, so
    /// growth happens only when a chunk produces more than any chunk before it.
    func growBuffer() {
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
        _ = grown.initialize(from: buffer)
        buffer.deallocate()
        buffer = grown
    }

    /// How many bytes of the buffer hold output since ``resetOutput()``.
    var produced: Int { outputEnd - Int(pointer.pointee.avail_out) }

    /// Input bytes zlib has not consumed yet.
    var pendingInput: Int { Int(pointer.pointee.avail_in) }

    /// A ``ClientError`` with code ``ClientError/Code/compressionFailed`` naming zlib's message.
    static func error(_ text: String, status: Int32, stream: UnsafeMutablePointer<z_stream>) -> ClientError {
        var message = text
        if let detail = stream.pointee.msg { message += ": " + String(cString: detail) }
        message += " (zlib status \(status))"
        return ClientError(.compressionFailed, message: message)
    }
}
