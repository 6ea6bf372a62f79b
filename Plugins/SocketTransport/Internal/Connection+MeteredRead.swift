extension Connection {
    /// Reads once and parses what came: without a meter at most `limit` bytes; with one, at most the grant,
    /// settled with the body bytes among what was read (none when the read or the parse fails). The response head
    /// and the body are both read this way, so no body byte is read before it was granted.
    /// - Parameters:
    ///   - limit: The most bytes to read when nothing meters the download.
    ///   - meter: The request's download meter, or `nil` without a limiter.
    /// - Throws: What the read, the parse or the limiter throws.
    func readAndParse(upTo limit: Int = .max, metering meter: BandwidthMeter?) async throws {
        guard let meter else {
            try parse(try await read(upTo: limit))
            return
        }
        let granted = try await meter.grant(upTo: readSize)
        do {
            try parse(try await read(upTo: granted))
        } catch {
            meter.settle(used: 0, granted: granted)
            throw error
        }
        meter.settle(used: BandwidthMeter.bodyBytes(in: events), granted: granted)
    }
}
