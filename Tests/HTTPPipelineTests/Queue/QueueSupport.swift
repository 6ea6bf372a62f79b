import Dispatch
import FoundationEssentials
import HTTPCore
import HTTPPipeline
import HTTPTesting
import Synchronization

/// A transport that holds every request until the test releases it, and records how many were in flight.
final class GateTransport: Sendable {
    private struct State {
        var waiting: [(path: String, token: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var released: [String: Int] = [:]
        var cancelled: Set<Int> = []
        var nextToken = 0
        var inFlight = 0
        var maxInFlight = 0
        var arrivals: [String] = []
    }
    private let state = Mutex(State())

    /// The transport: `/fail…` paths fail with connectFailed once released; others answer 200 with the path.
    var transport: ScriptedTransport {
        ScriptedTransport { [self] request, _ in
            let path = request.url.path()
            await arrive(path)
            defer { state.withLock { $0.inFlight -= 1 } }
            try Task.checkCancellation()
            if path.hasPrefix("/fail") { throw ClientError(.connectFailed, message: "scripted failure") }
            return .text(path)
        }
    }

    /// Waits until released or cancelled.
    private func arrive(_ path: String) async {
        let token = state.withLock { state in
            state.nextToken += 1
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            state.arrivals.append(path)
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let go = state.withLock { state -> Bool in
                    if state.cancelled.contains(token) { return true }
                    if let count = state.released[path], count > 0 {
                        state.released[path] = count - 1
                        return true
                    }
                    state.waiting.append((path, token, continuation))
                    return false
                }
                if go { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled.insert(token)
                guard let index = state.waiting.firstIndex(where: { $0.token == token }) else { return nil }
                return state.waiting.remove(at: index).continuation
            }
            continuation?.resume()
        }
    }

    /// Lets one request for `path` answer (now, or when it arrives).
    func release(_ path: String) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let index = state.waiting.firstIndex(where: { $0.path == path }) {
                return state.waiting.remove(at: index).continuation
            }
            state.released[path, default: 0] += 1
            return nil
        }
        continuation?.resume()
    }

    var arrivals: [String] { state.withLock { $0.arrivals } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    /// Waits (polling) until `count` requests have arrived.
    func waitForArrivals(_ count: Int) async throws {
        for _ in 0..<2000 where arrivals.count < count {
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

/// Callbacks that log every event into `log` with a prefix.
func loggingCallbacks(_ log: HopRecorder, _ name: String) -> RequestCallbacks {
    RequestCallbacks(
        started: { _ in log.append("\(name) started") },
        receivedResponseHead: { head in log.append("\(name) head \(head.status.code)") },
        finished: { response in log.append("\(name) finished \(response.status.code)") },
        failed: { error in log.append("\(name) failed \(error.code)") })
}

/// Queue callbacks that log every event into `log`.
func loggingQueueCallbacks(_ log: HopRecorder) -> QueueCallbacks {
    QueueCallbacks(
        requestStarted: { request in log.append("queue started \(request.url.path())") },
        receivedResponseHead: { request, head in log.append("queue head \(request.url.path()) \(head.status.code)") },
        requestFinished: { request, _ in log.append("queue finished \(request.url.path())") },
        requestFailed: { request, error in log.append("queue failed \(request.url.path()) \(error.code)") },
        queueFinished: { log.append("queue drained") })
}
