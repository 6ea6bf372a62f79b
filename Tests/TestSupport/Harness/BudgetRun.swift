import FoundationEssentials

/// Runs a request-budget executable (`RequestBudget` for HTTP/1.1, `HTTP2RequestBudget` for HTTP/2) and reads what
/// it prints: the `BUDGET key=value …` line of a counted run, and `strace -c` summaries of runs of two lengths, so
/// the budget tests of both protocols count the same way.
package enum BudgetRun {
    /// Why a budget run gave nothing to read.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong, with the command and its output.
        package let description: String
    }

    /// Runs `executable` with `arguments`, behind `prefix` (a tracer), and returns its output.
    /// - Parameters:
    ///   - executable: The budget executable.
    ///   - arguments: Its mode, URL and counts.
    ///   - prefix: A command to run it under, such as `strace -f -c -o FILE`; none by default.
    /// - Returns: stdout and stderr together.
    /// - Throws: ``Failure`` when it exits with a non-zero status.
    package static func output(
        of executable: String, _ arguments: [String], under prefix: [String] = []
    ) async throws -> String {
        let directory = try makeTemporaryDirectory(prefix: "asikit-budget-run")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let command = prefix + [executable] + arguments
        let child = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()),
                                     logPath: directory + "/output.txt")
        let status = await child.exited()
        let output = child.logTail
        guard status == 0 else {
            throw Failure(description: "\(command.joined(separator: " ")) exited with \(status): \(output)")
        }
        return output
    }

    /// The `key=value` fields of the output's last `BUDGET` line, or `nil` when it has none.
    /// - Parameter output: What the executable printed.
    /// - Returns: The fields by key.
    package static func fields(of output: String) -> [String: String]? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("BUDGET ") }) else { return nil }
        return Dictionary(line.split(separator: " ").dropFirst().compactMap { field in
            let parts = field.split(separator: "=", maxSplits: 1)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { _, last in last })
    }

    /// System calls per request, by name: `executable` runs `arguments(n)` under `strace -f -c` for `n` and `3n`
    /// requests, and the difference is divided by `2n`, so start-up and warm-up cancel out.
    /// - Parameters:
    ///   - executable: The budget executable.
    ///   - strace: The `strace` program.
    ///   - n: The shorter run's requests.
    ///   - arguments: The arguments for a run of the given number of requests.
    /// - Returns: Calls per request of every system call either run made.
    /// - Throws: ``Failure`` when a run fails; an error reading a summary.
    package static func systemCallsPerRequest(
        of executable: String, strace: String, n: Int = 1_000, arguments: (Int) -> [String]
    ) async throws -> [String: Double] {
        let directory = try makeTemporaryDirectory(prefix: "asikit-budget-strace")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var counts: [[String: Int]] = []
        for requests in [n, 3 * n] {
            let summary = "\(directory)/strace-\(requests).txt"
            _ = try await output(of: executable, arguments(requests), under: [strace, "-f", "-c", "-o", summary])
            counts.append(callCounts(in: try String(contentsOfFile: summary, encoding: .utf8)))
        }
        return Dictionary(uniqueKeysWithValues: Set(counts[0].keys).union(counts[1].keys).map { name in
            (name, Double((counts[1][name] ?? 0) - (counts[0][name] ?? 0)) / Double(2 * n))
        })
    }

    /// The calls made at least once per hundred requests, sorted by name, for a failure message.
    /// - Parameter perRequest: Calls per request by name.
    /// - Returns: `name count, …`.
    package static func listing(_ perRequest: [String: Double]) -> String {
        perRequest.filter { $0.value >= 0.01 }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
    }

    /// The call counts of a `strace -c` summary, by system call.
    /// - Parameter summary: The summary's text.
    /// - Returns: Calls by name, without the total.
    package static func callCounts(in summary: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for line in summary.split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            // % time, seconds, usecs/call, calls, [errors,] syscall
            guard columns.count >= 5, Double(columns[0]) != nil, let calls = Int(columns[3]),
                let name = columns.last, name != "total"
            else { continue }
            counts[String(name)] = calls
        }
        return counts
    }
}
