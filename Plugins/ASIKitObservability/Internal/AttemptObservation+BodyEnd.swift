import HTTPCore

/// The attempt ends when its body has been read to the end, fails, or is given up (the response body is wrapped in
/// HTTPCore's `EndObservingBodySource`); the chunks pass through untouched.
extension AttemptObservation: BodyEndObserver {
    func bodyEnded(_ end: BodyEnd) {
        switch end {
        case .finished, .discarded: finish(error: nil)
        case .failed(let error): finish(error: error)
        }
    }
}
