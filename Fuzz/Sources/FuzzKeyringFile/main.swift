// Fuzzes the keyring file format (FileKeyring): the 64-byte header and the decrypted payload's entry encoding.
//
// Byte 0 picks the part: even → the input is a whole keyring file whose header is parsed; odd → the rest is a
// payload decoded as format version 1 or 2. Invariants: a parsed header writes back to the same 64 bytes and
// never admits an scrypt work factor outside the allowed range; a decoded payload survives encoding and decoding.
import FuzzSupport
import HTTPCore
@testable import FileKeyring

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let selector = input.bytes.first else { return 0 }
    let rest = Array(input.bytes.dropFirst())
    if selector & 1 == 0 {
        guard let header = try? KeyringHeader(parsing: rest) else { return 0 }
        fuzzCheck(header.bytes == Array(rest[0..<KeyringHeader.size]), "the header does not round-trip")
        if header.kdf == .scrypt {
            let factor = FileCredentialStore.WorkFactor(log2N: header.log2N, blockSize: header.r, parallelism: header.p)
            fuzzCheck(factor.isValid, "admitted an invalid scrypt work factor")
        }
    } else {
        let version: UInt8 = selector & 2 == 0 ? 1 : 2
        guard let entries = KeyringPayload.decode(rest, version: version) else { return 0 }
        // Decoding normalises (a scope's host is lower-cased), so the round trip is checked from the decoded form.
        let encoded = KeyringPayload.encode(entries)
        guard let again = KeyringPayload.decode(encoded, version: KeyringHeader.version) else {
            fuzzCheck(false, "an encoded payload does not decode")
            return 0
        }
        fuzzCheck(KeyringPayload.encode(again) == encoded, "the payload does not round-trip")
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
