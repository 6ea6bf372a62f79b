import CZstd

/// libzstd's functions, opened with `dlopen` (decision 0024).
struct ZstdLibrary: Sendable {
    /// The functions; every one is non-nil.
    let functions: c_zstd_functions

    /// `libzstd.so.1`, loaded once, on first use; `nil` when the system does not have it.
    static let system = load("libzstd.so.1")

    /// Opens `name` and looks the functions up.
    /// - Parameter name: The file `dlopen` is given.
    /// - Returns: The library, or `nil` when it or one of its functions is missing.
    static func load(_ name: String) -> ZstdLibrary? {
        let functions = name.withCString { c_zstd_load($0) }
        return functions.createDStream == nil ? nil : ZstdLibrary(functions: functions)
    }
}
