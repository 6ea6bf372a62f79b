extension Client {
    /// ASIKit's version: the one place it is written down.
    ///
    /// The default `User-Agent` ends with `ASIKit/<version>`, and the `asi` example prints it for `--version`.
    /// Bump it here when a release is tagged.
    public static let frameworkVersion = "0.1.0"
}
