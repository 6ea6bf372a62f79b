import FileKeyring
import FoundationEssentials
import HTTPCore
import HTTPPipeline

#if canImport(Glibc)
import Glibc
#endif

/// The `.netrc` file and the keyring the flags ask for, and what they add to each request.
struct CredentialSources: Sendable {
    /// Whether a netrc flag was given.
    let usesNetrc: Bool
    /// The parsed `.netrc`, or `nil` without a netrc flag (or when the file does not exist, as curl allows).
    let netrc: NetrcFile?
    /// `--netrc-optional`: a password in the URL wins over the file.
    let netrcOptional: Bool
    /// The keyring of `--keyring`.
    let keyring: FileCredentialStore?

    /// Loads the `.netrc` and opens the keyring (the key is checked later, by ``validateKeyring()``).
    /// - Throws: ``TransferFailure``: 26 for an unreadable or malformed `.netrc`, 2 for a keyring without a
    ///   passphrase.
    init(_ flags: CredentialSourceFlags) throws(TransferFailure) {
        netrcOptional = flags.netrcOptional
        usesNetrc = flags.usesNetrc
        if flags.usesNetrc, let path = flags.netrcFile ?? NetrcFile.defaultPath() {
            do {
                netrc = try NetrcFile.load(path: path)
            } catch {
                throw TransferFailure(26, "Cannot use the .netrc file \(path): \(error)")
            }
        } else {
            netrc = nil
        }
        guard let path = flags.keyring else {
            keyring = nil
            return
        }
        guard let passphrase = Self.passphrase(for: path) else {
            throw TransferFailure(2, "--keyring needs ASI_KEYRING_PASSPHRASE, or a terminal to ask for the passphrase")
        }
        do {
            keyring = try FileCredentialStore(configuration: .init(path: path, key: .passphrase(passphrase)))
        } catch {
            throw TransferFailure(2, "Cannot use the keyring \(path): \(error)")
        }
        // The key and decrypted credentials must not end up in a core dump of this process (prctl is variadic, so
        // out of Swift's reach; a zero core-size limit has the same effect on dumps).
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
    }

    /// Opens the keyring once, so a wrong passphrase stops the run before any request, with the file untouched.
    /// - Throws: ``TransferFailure`` 2 with the keyring's message.
    func validateKeyring() async throws(TransferFailure) {
        guard let keyring else { return }
        do {
            try await keyring.validate()
        } catch let error as ClientError {
            throw TransferFailure(2, (error.underlying as? KeyringError)?.description ?? error.message)
        } catch {
            throw TransferFailure(2, "keyring \(keyring.configuration.path): \(error)")
        }
    }

    /// Applies the `.netrc` to a request, with curl's precedence: `-u` wins; with `--netrc-optional` the URL's
    /// `user:password` wins (and is sent up front, as curl sends it); otherwise the file's entry for the host
    /// (picked by the URL's user) becomes the request's own credential, and a user in the URL without an entry is
    /// sent with an empty password.
    /// - Parameters:
    ///   - request: The request for one URL.
    ///   - preemptive: Whether the credential goes out as Basic before any challenge (not with `--anyauth`).
    func apply(to request: inout Request, preemptive: Bool) {
        guard usesNetrc, request.options.credential == nil, let host = request.url.host() else { return }
        let user = request.url.user(percentEncoded: false)
        let password = request.url.password(percentEncoded: false)
        let fromURL = user.map { Credential(user: $0, password: password ?? "") }
        let found = netrcOptional && password != nil ? fromURL : netrc?.credential(forHost: host, user: user) ?? fromURL
        guard let credential = found else { return }
        request.options.credential = credential
        if preemptive { request.options.authenticationScheme = .basic }
    }

    /// The passphrase: `ASI_KEYRING_PASSPHRASE`, else asked on the terminal without echo when stdin is one.
    private static func passphrase(for path: String) -> String? {
        if let value = getenv("ASI_KEYRING_PASSPHRASE") { return String(cString: value) }
        guard isatty(0) == 1 else { return nil }
        Output.writeError("Passphrase for keyring \(path): ")
        var saved = termios()
        let restores = tcgetattr(0, &saved) == 0
        if restores {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer {
            if restores { _ = tcsetattr(0, TCSAFLUSH, &saved) }
            Output.writeError("\n")
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(0, &byte, 1) == 1, byte != 0x0A { bytes.append(byte) }
        if bytes.last == 0x0D { bytes.removeLast() }
        defer { bytes.wipeSecret() }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension [UInt8] {
    /// Overwrites the bytes with zeros.
    fileprivate mutating func wipeSecret() {
        withUnsafeMutableBytes { if let base = $0.baseAddress { explicit_bzero(base, $0.count) } }
    }
}
