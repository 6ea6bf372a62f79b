import FoundationEssentials
import Glibc
import Synchronization

/// Makes a fresh directory under `$TMPDIR` (or `/tmp`) that other users can read, because nginx's worker runs
/// as `nobody` when the tests run as root.
/// - Parameter prefix: The start of the directory's name.
/// - Returns: Its path.
/// - Throws: ``PeerError/startFailed(_:log:)`` when it cannot be made.
package func makeTemporaryDirectory(prefix: String) throws -> String {
    let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array("\(base)/\(prefix).XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw PeerError.startFailed("mkdtemp in \(base)", log: String(cString: strerror(errno)))
    }
    let path = String(cString: made)
    chmod(path, 0o755)
    return path
}

/// Directories removed when the test process exits normally.
private let directoriesToRemove = Mutex<[String]>([])

func registerRemovalAtExit(_ directory: String) {
    let first = directoriesToRemove.withLock { list in
        list.append(directory)
        return list.count == 1
    }
    if first {
        atexit {
            for directory in directoriesToRemove.withLock({ $0 }) {
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
    }
}
