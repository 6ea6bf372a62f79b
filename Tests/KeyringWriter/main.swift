// A tiny writer for FileKeyringTests' crash and concurrency tests (not a product).
//
//   KeyringWriter PATH save PREFIX COUNT        saves PREFIX-0 ... PREFIX-(COUNT-1), one save each, then exits 0
//   KeyringWriter PATH loop                     saves h-0, h-1, ... until killed
//   KeyringWriter PATH stop-at N STAGE MARKER   saves h-0 ... h-(N-1); during save N, at STAGE (halfWritten or
//                                               beforeRename), creates MARKER and waits forever to be killed
//
// The passphrase is the environment variable KEYRING_WRITER_PASSPHRASE; the work factor is the smallest (2^10).
// The umask is 0, so the files' 0600 comes from the store alone.
import FileKeyring
import Glibc
import HTTPCore

let arguments = CommandLine.arguments
guard arguments.count >= 3, let passphrase = getenv("KEYRING_WRITER_PASSPHRASE").map({ String(cString: $0) }) else {
    let usage = "usage: KeyringWriter PATH save PREFIX COUNT | loop | stop-at N STAGE MARKER\n"
    _ = write(2, usage, usage.utf8.count)
    exit(2)
}
umask(0)  // the most permissive umask: the keyring and its lock file must still be 0600
let path = arguments[1]
let mode = arguments[2]
let stopAt = mode == "stop-at" ? Int(arguments[3]) ?? 0 : -1
let stopStage: FileCredentialStore.WriteStage =
    mode == "stop-at" && arguments[4] == "halfWritten" ? .halfWritten : .beforeRename
let marker = mode == "stop-at" ? arguments[5] : ""
nonisolated(unsafe) var saving = 0

let store = try FileCredentialStore(
    configuration: .init(path: path, key: .passphrase(passphrase), workFactor: .init(log2N: 10)),
    writeHook: { stage in
        guard saving == stopAt, stage == stopStage else { return }
        close(open(marker, O_WRONLY | O_CREAT, 0o600))
        while true { pause() }
    })

func scope(_ host: String) -> CredentialScope { CredentialScope(scheme: "https", host: host, port: 443) }

switch mode {
case "save":
    let prefix = arguments[3]
    for index in 0..<(Int(arguments[4]) ?? 0) {
        try await store.save(
            Credential(user: "user-\(index)", password: "pw-\(prefix)-\(index)"),
            for: scope("\(prefix)-\(index).example"))
    }
default:
    while true {
        try await store.save(
            Credential(user: "user-\(saving)", password: "pw-\(saving)"), for: scope("h-\(saving).example"))
        saving += 1
    }
}
