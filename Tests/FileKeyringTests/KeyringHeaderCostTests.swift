import FileKeyring
import FoundationEssentials
import HTTPCore
import Testing

/// The scrypt cost in a keyring's header is chosen by whoever can write the file: it must be bounded before any
/// derivation (a raised cost is a denial of service, a lowered one a downgrade).
@Suite struct KeyringHeaderCostTests {
    typealias Support = KeyringTestSupport

    /// Writes a keyring, then puts `cost` (log2 N, r, p) in its header.
    private static func keyring(withCost cost: [UInt8], in directory: String) async throws -> (String, [UInt8]) {
        let path = "\(directory)/keyring"
        try await Support.store(path).save(Credential(user: "u", password: "p"), for: Support.scope("a.example"))
        var bytes = try #require(Support.bytes(path))
        bytes.replaceSubrange(10..<13, with: cost)
        try Data(bytes).write(to: URL(filePath: path))
        return (path, bytes)
    }

    private static func expectRefused(_ path: String, bytes: [UInt8]) async throws {
        let store = try Support.store(path)
        for operation in 0..<3 {
            let error = await #expect(throws: ClientError.self) {
                switch operation {
                case 0: try await store.validate()
                case 1: _ = try await store.credential(for: Support.scope("a.example"))
                default: try await store.save(Credential(user: "x", password: "y"), for: Support.scope("b.example"))
                }
            }
            #expect(error?.code == .storageFailed)
            #expect((error?.underlying as? KeyringError)?.code == .damaged)
            #expect(error?.message.contains("scrypt cost") == true, "\(String(describing: error))")
        }
        #expect(Support.bytes(path) == bytes)
    }

    /// Costs the previous ranges accepted (r up to 32, p up to 16) or refused only as "not a keyring" (N < 2^10,
    /// r = 0); all cheap, so the test shows the bound without running a costly derivation when it is missing.
    @Test(arguments: [[9, 8, 1], [0, 8, 1], [10, 0, 1], [10, 32, 1], [10, 1, 16], [10, 1, 5], [10, 17, 1]] as [[UInt8]])
    func aHeaderCostOutsideTheWritableRangeIsRefusedAsDamaged(_ cost: [UInt8]) async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (path, bytes) = try await Self.keyring(withCost: cost, in: directory)
        try await Self.expectRefused(path, bytes: bytes)
    }

    /// The review's example: N = 2^22, r = 32, p = 16 asks for 16 GiB and minutes of CPU; it is refused at once.
    @Test(arguments: [[22, 32, 16], [20, 8, 1], [19, 16, 4], [255, 255, 255]] as [[UInt8]])
    func anExpensiveHeaderCostIsRefusedBeforeAnyDerivation(_ cost: [UInt8]) async throws {
        let directory = try Support.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (path, bytes) = try await Self.keyring(withCost: cost, in: directory)
        try await Self.expectRefused(path, bytes: bytes)
    }

    /// What a configuration may ask for is what a reader accepts, so the library never writes a file it refuses.
    @Test func aConfigurationOutsideTheReadableRangeIsRefused() throws {
        typealias WorkFactor = FileCredentialStore.WorkFactor
        for factor in [
            WorkFactor(log2N: 9), WorkFactor(log2N: 21, blockSize: 1), WorkFactor(log2N: 20, blockSize: 8),
            WorkFactor(log2N: 19, blockSize: 8), WorkFactor(blockSize: 17), WorkFactor(parallelism: 5),
        ] {
            let error = #expect(throws: ClientError.self, "\(factor)") {
                _ = try FileCredentialStore(
                    configuration: .init(path: "/nonexistent/k", key: .passphrase("x"), workFactor: factor))
            }
            #expect(error?.code == .invalidConfiguration)
        }
        for factor in [
            WorkFactor.standard, WorkFactor(log2N: 18, blockSize: 8), WorkFactor(log2N: 20, blockSize: 2),
            WorkFactor(log2N: 10, blockSize: 16, parallelism: 4),
        ] {
            #expect(throws: Never.self, "\(factor)") {
                _ = try FileCredentialStore(
                    configuration: .init(path: "/nonexistent/k", key: .passphrase("x"), workFactor: factor))
            }
        }
    }
}
