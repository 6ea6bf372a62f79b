import FoundationEssentials
import Glibc

/// One sample of the process: resident memory, open descriptors, threads, and the soak's requests in flight.
struct ResourceSample: Sendable {
    var second: Double
    var rssKiB: Double
    var descriptors: Double
    var threads: Double
    var tasks: Double

    /// The process now, from `/proc/self`.
    static func now(second: Double, tasks: Int) -> ResourceSample {
        let status = String(
            decoding: FileManager.default.contents(atPath: "/proc/self/status") ?? Data(), as: UTF8.self)
        func field(_ name: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Double(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") ?? 0
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ResourceSample(second: second, rssKiB: field("VmRSS"), descriptors: Double(descriptors),
                              threads: field("Threads"), tasks: Double(tasks))
    }

    /// The least-squares slope of `value` over `second`, per second.
    static func slope(_ samples: [ResourceSample], _ value: (ResourceSample) -> Double) -> Double {
        let n = Double(samples.count)
        guard n >= 2 else { return 0 }
        let meanX = samples.map(\.second).reduce(0, +) / n
        let meanY = samples.map(value).reduce(0, +) / n
        var numerator = 0.0
        var denominator = 0.0
        for sample in samples {
            numerator += (sample.second - meanX) * (value(sample) - meanY)
            denominator += (sample.second - meanX) * (sample.second - meanX)
        }
        return denominator == 0 ? 0 : numerator / denominator
    }
}
