import CBrotli

/// libbrotlidec's functions, opened with `dlopen` (decision 0024).
struct BrotliLibrary: Sendable {
    /// The functions; every one is non-nil.
    let functions: c_brotli_functions

    /// `libbrotlidec.so.1`, loaded once, on first use; `nil` when the system does not have it.
    static let system = load("libbrotlidec.so.1")

    /// Opens `name` and looks the functions up.
    /// - Parameter name: The file `dlopen` is given.
    /// - Returns: The library, or `nil` when it or one of its functions is missing.
    static func load(_ name: String) -> BrotliLibrary? {
        let functions = name.withCString { c_brotli_load($0) }
        return functions.createInstance == nil ? nil : BrotliLibrary(functions: functions)
    }
}
