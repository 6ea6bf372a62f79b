/// A conformance check that a plugin failed: which suite, which check, and what was seen.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// The suite, such as `CookieStoreConformance`.
    public var suite: String
    /// The check that failed.
    public var check: String
    /// What was expected and what was seen.
    public var detail: String

    /// `suite.check: detail`.
    public var description: String { "\(suite).\(check): \(detail)" }
}

/// Runs checks and throws the first failure.
struct ConformanceChecker {
    let suite: String
    var check = ""

    func expect(_ condition: Bool, _ detail: @autoclosure () -> String) throws {
        if !condition { throw ConformanceFailure(suite: suite, check: check, detail: detail()) }
    }
}
