import ArgumentParser

/// A rate in bytes per second as curl writes it: a whole number with an optional unit `K`, `M` or `G` (powers of
/// 1024, either case) or `B`; `500K` is 512,000 bytes per second. 0 means no limit, as in curl.
struct ByteRate: ExpressibleByArgument, Equatable {
    /// The rate in bytes per second; 0 for no limit.
    let bytesPerSecond: Int

    /// Parses `RATE`; `nil` (a usage error, exit 2) for anything else, such as `1.5M`, `10KB` or `-1`.
    init?(argument: String) {
        var digits = Substring(argument)
        var multiplier = 1
        if let unit = digits.last, !unit.isNumber {
            switch unit {
            case "K", "k": multiplier = 1 << 10
            case "M", "m": multiplier = 1 << 20
            case "G", "g": multiplier = 1 << 30
            case "B", "b": multiplier = 1
            default: return nil
            }
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytesPerSecond = bytes
    }

    /// The rate as a limit: `nil` for 0 (no limit).
    var limit: Int? { bytesPerSecond > 0 ? bytesPerSecond : nil }
}
