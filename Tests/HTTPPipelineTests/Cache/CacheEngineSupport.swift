import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization

/// An injected wall clock for the cache engine: starts at 2023-11-14 22:13:20 GMT and moves only when told.
final class TestNow: Sendable {
    private let date = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// `now` moved by `offset` seconds, as an IMF-fixdate.
    func httpDate(_ offset: TimeInterval = 0) -> String {
        Self.format(now.addingTimeInterval(offset))
    }

    static func format(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // Civil date from days since 1970 (proleptic Gregorian).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let weekday = weekdays[((days % 7) + 7) % 7]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekday), \(two(day)) \(months[month - 1]) \(year) \(two(rest / 3_600)):\(two(rest / 60 % 60)):"
            + "\(two(rest % 60)) GMT"
    }

    /// A client whose cache measures time with this clock.
    func client(
        _ transport: ScriptedTransport, cache: MemoryCacheStore = MemoryCacheStore(),
        configure: (inout Client.CacheConfiguration) -> Void = { _ in }
    ) -> Client {
        var configuration = Client.Configuration()
        configuration.cache = Client.CacheConfiguration(now: { [self] in now })
        configure(&configuration.cache)
        return Client(transport: transport, cache: cache, configuration: configuration)
    }
}

/// An origin that answers every request with `status`, `body` and the fields `make` builds (given the request),
/// and answers a matching `If-None-Match` or `If-Modified-Since` with a 304 carrying the same fields.
func cacheOrigin(
    status: Int = 200, body: String = "stored",
    _ make: @escaping @Sendable (Request) -> [(HTTPField.Name, String)]
) -> ScriptedTransport {
    ScriptedTransport { request, _ in
        let fields = fields(make(request))
        let etagMatches = request.headerFields[.ifNoneMatch].map { $0 == fields[.eTag] } ?? false
        let dateMatches = request.headerFields[.ifModifiedSince].map { $0 == fields[.lastModified] } ?? false
        if etagMatches || dateMatches { return Response(status: .notModified, headerFields: fields) }
        return .text(body, status: status, headerFields: fields)
    }
}
