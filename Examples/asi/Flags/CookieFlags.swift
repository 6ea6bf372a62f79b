import ArgumentParser

/// The cookie flags: cookies to send, cookie files to read and the jar to write (curl's cookie engine).
struct CookieFlags: ParsableArguments {
    @Option(
        name: [.customShort("b"), .customLong("cookie")],
        help: ArgumentHelp(
            "Cookies to send: \"name=value; name2=value2\", or a cookie file to read (Netscape format).",
            valueName: "data|file"))
    var cookies: [String] = []

    @Option(
        name: [.customShort("c"), .customLong("cookie-jar")],
        help: ArgumentHelp(
            "Keep cookies in this file (Netscape format; - for stdout): read at the start, written at the end, "
                + "session cookies included.",
            valueName: "file"))
    var cookieJar: String?

    @Flag(
        name: [.customShort("j"), .customLong("junk-session-cookies")],
        help: "Ignore the session cookies in the cookie files read (start a new session).")
    var junkSessionCookies = false

    /// The `-b` arguments that name files (no `=`), as curl tells them apart.
    var cookieFiles: [String] { cookies.filter { !$0.contains("=") } }

    /// Whether `-b` or `-c` turned the cookie engine on.
    var usesCookieEngine: Bool { !cookies.isEmpty || cookieJar != nil }
}
