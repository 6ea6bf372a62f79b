import FoundationEssentials
import HTTPCore
import HTTPPipeline
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The Linux counterpart of ASIHTTPRequest's authentication dialog: when stdin is a terminal and a 401 or 407
/// finds no credential, ask on the terminal (the password without echo). An empty user name gives up.
enum CredentialPrompt {
    /// The handler, or `nil` when stdin is not a terminal.
    static func handler() -> (@Sendable (AuthenticationChallenge) async throws -> Credential?)? {
        guard isatty(0) == 1 else { return nil }
        let asking = Mutex(false)
        return { challenge in
            // One prompt at a time: parallel transfers wait for the terminal.
            while !asking.withLock({ busy in
                if busy { return false }
                busy = true
                return true
            }) {
                try await Task.sleep(for: .milliseconds(50))
            }
            defer { asking.withLock { $0 = false } }
            let who = challenge.isForProxy ? "proxy \(challenge.scope.host):\(challenge.scope.port)"
                : "\(challenge.scope.host):\(challenge.scope.port)"
            let realm = challenge.realm.map { " (realm \"\($0)\")" } ?? ""
            if challenge.failureCount > 0 { Output.writeError("asi: credentials rejected\n") }
            Output.writeError("Enter user for \(who)\(realm): ")
            guard let user = readLine(), !user.isEmpty else { return nil }
            guard let password = readPassword(prompt: "Enter password for user '\(user)': ") else { return nil }
            return Credential(user: user, password: password)
        }
    }

    /// Reads a line from the terminal with echo off.
    /// - Parameter prompt: Written to stderr first.
    /// - Returns: The line, or `nil` at end of input.
    static func readPassword(prompt: String) -> String? {
        Output.writeError(prompt)
        var saved = termios()
        let isTerminal = tcgetattr(0, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSAFLUSH, &quiet)
        }
        defer {
            if isTerminal {
                tcsetattr(0, TCSAFLUSH, &saved)
                Output.writeError("\n")
            }
        }
        return readLine()
    }
}
