import FileKeyring
import HTTPCore
import Testing

/// Every public type of the plugin crosses into a detached task (a compile-time check, run once).
@Suite struct SendableTests {
    @Test func publicTypesAreSendable() async throws {
        let configuration = FileCredentialStore.Configuration(
            path: "/nonexistent/keyring", key: .keyFile(path: "/nonexistent/key"), workFactor: .standard)
        let store = try FileCredentialStore(configuration: configuration)
        let netrc = try NetrcFile(parsing: Array("machine a.com login u password p\n".utf8))
        let entry = NetrcFile.Entry(machine: "a.com")
        let reader = NetrcCredentialStore(file: netrc, user: "u")
        let error = KeyringError(.damaged, path: "/x", message: "m")
        let syntax = NetrcFile.SyntaxError(line: 1, message: "m")
        let code = KeyringError.Code.wrongKey
        let count = await Task.detached {
            _ = (configuration, store, entry, reader, error, syntax, code)
            return netrc.entries.count
        }.value
        #expect(count == 1)
    }
}
