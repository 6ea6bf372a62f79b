import FoundationEssentials
import Glibc
import HTTPCore

// Temporary directories and whole-file reads and writes for the pipeline's file tests (downloads, resumes,
// the disk-backed bodies).

/// A fresh temporary directory, removed with ``removeDirectory(_:)``.
func makeDirectory() throws -> String {
    var template = Array((FileManager.default.temporaryDirectory.path + "/asikit-data-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw ClientError(.storageFailed, message: "mkdtemp failed") }
    return String(cString: made)
}

func removeDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        throw ClientError(.storageFailed, message: "cannot write \(path)")
    }
}

func readFile(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map(Array.init)
}

func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

/// The names in a directory.
func listing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}
