/// The probe for Python modules that the peers' availability checks run.
///
/// The checks run once, from `.enabled(if:)` on a cooperative thread, and every other test that asks waits for
/// that one: finding the modules (`importlib.util.find_spec`) takes a few milliseconds where importing moto or
/// httpbin takes seconds on a busy machine.
enum PythonModules {
    /// A `python3 -c` program that exits 0 when every module in `names` can be found, without importing them.
    /// - Parameter names: Top-level module names.
    /// - Returns: The program.
    static func probe(_ names: [String]) -> String {
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        return "import importlib.util, sys; sys.exit(0 if all(importlib.util.find_spec(m) for m in [\(list)]) else 1)"
    }
}
