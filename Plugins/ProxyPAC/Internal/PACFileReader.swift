#if canImport(Glibc)
import Glibc
#endif
import HTTPCore

/// Reads a local PAC file without reading more than the configured limit: a larger file, or a device such as
/// `/dev/zero`, is refused after `maxBytes + 1` bytes instead of being read into memory without end.
enum PACFileReader {
    /// The file's bytes.
    /// - Parameters:
    ///   - path: The PAC file.
    ///   - maxBytes: The largest file accepted (``PACProxyResolver/Configuration/maxScriptBytes``).
    /// - Returns: The bytes, or ``HTTPCore/ClientError`` with `storageFailed` when the file cannot be read and
    ///   `protocolViolation` when it holds more than `maxBytes`.
    static func read(_ path: String, maxBytes: Int) -> Result<[UInt8], ClientError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(ClientError(.storageFailed, stage: .transport, message: "Cannot read PAC file \(path)"))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= maxBytes {
            let remaining = maxBytes - bytes.count  // one byte past it shows the file is longer (no overflow at .max)
            let wanted = remaining >= buffer.count ? buffer.count : remaining + 1
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, wanted) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                return .failure(ClientError(.storageFailed, stage: .transport, message: "Cannot read PAC file \(path)"))
            }
            if count == 0 { return .success(bytes) }
            bytes += buffer[..<count]
        }
        return .failure(ClientError(.protocolViolation, stage: .transport,
                                    message: "PAC file is larger than \(maxBytes) bytes"))
    }
}
