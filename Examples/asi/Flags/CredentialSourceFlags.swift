import ArgumentParser

/// Where credentials come from besides `-u`: a `.netrc` file (curl's `--netrc` family) and an encrypted keyring
/// that keeps accepted credentials across runs (ASIHTTPRequest's `useKeychainPersistence`).
struct CredentialSourceFlags: ParsableArguments {
    @Flag(
        name: [.customShort("n"), .customLong("netrc")],
        help: "Use credentials from $NETRC, else ~/.netrc (sent up front as Basic; the URL's user picks the account).")
    var netrc = false

    @Option(
        name: .customLong("netrc-file"),
        help: ArgumentHelp("Like --netrc, with this file.", valueName: "file"))
    var netrcFile: String?

    @Flag(
        name: .customLong("netrc-optional"),
        help: "Like --netrc, but a password in the URL wins over the file.")
    var netrcOptional = false

    @Option(
        name: .customLong("keyring"),
        help: ArgumentHelp(
            "Keep accepted credentials in this encrypted file and use them when challenged; the passphrase is "
                + "$ASI_KEYRING_PASSPHRASE or asked on the terminal.",
            valueName: "file"))
    var keyring: String?

    /// Whether any `.netrc` flag was given.
    var usesNetrc: Bool { netrc || netrcFile != nil || netrcOptional }
}
