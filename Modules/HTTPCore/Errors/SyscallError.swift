#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, kept as a ``ClientError/underlying`` error.
public struct SyscallError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value.
    public var errno: Int32
    /// The call that failed, such as `connect`.
    public var operation: String

    /// Creates the error.
    /// - Parameters:
    ///   - errno: The `errno` value.
    ///   - operation: The call that failed.
    public init(errno: Int32, operation: String) {
        self.errno = errno
        self.operation = operation
    }

    /// The error for the current thread's `errno`.
    /// - Parameter operation: The call that just failed.
    /// - Returns: The error.
    public static func last(_ operation: String) -> SyscallError {
        #if canImport(Glibc)
        SyscallError(errno: Glibc.errno, operation: operation)
        #else
        SyscallError(errno: Darwin.errno, operation: operation)
        #endif
    }

    /// For example `connect: Connection refused (errno 111)`.
    public var description: String {
        "\(operation): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
