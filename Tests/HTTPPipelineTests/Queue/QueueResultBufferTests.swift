import FoundationEssentials
import HTTPCore
import Synchronization
import Testing

@testable import HTTPPipeline

/// The buffer behind ``RequestQueue/results``: it behaves as the buffered `AsyncStream` it replaced — results kept
/// until read, a finish that still hands out what is buffered, a waiting reader woken by a result or by the finish,
/// and a reader's cancelled task ending the sequence.
@Suite struct QueueResultBufferTests {
    static func result(_ number: UInt64) -> QueueResult {
        QueueResult(
            requestID: RequestID(rawValue: number), request: Request(url: URL(string: "http://a.example/")!),
            result: .failure(ClientError(.cancelled, message: "test")))
    }

    @Test func bufferedResultsAreReadInOrderBeforeTheFinish() async {
        let buffer = QueueResultBuffer()
        for number in UInt64(1)...100 { buffer.yield(Self.result(number)) }
        buffer.finish()
        buffer.yield(Self.result(101))  // after the finish: dropped
        var read: [UInt64] = []
        for await result in buffer.stream() { read.append(result.requestID.rawValue) }
        #expect(read == Array(1...100))
    }

    @Test func aWaitingReaderIsWokenByEachResultAndByTheFinish() async {
        let buffer = QueueResultBuffer()
        let reader = Self.reader(of: buffer)
        for number in UInt64(1)...50 {
            buffer.yield(Self.result(number))
            await Task.yield()
        }
        buffer.finish()
        #expect(await reader.value == Array(1...50))
    }

    @Test(.timeLimit(.minutes(10))) func aCancelledReaderEndsItsSequence() async {
        let buffer = QueueResultBuffer()
        let reader = Task {
            var count = 0
            for await _ in buffer.stream() { count += 1 }
            return count
        }
        buffer.yield(Self.result(1))
        reader.cancel()  // never finished by the queue: the cancel alone must end the loop
        let count = await reader.value
        #expect(count <= 1)
        buffer.yield(Self.result(2))  // dropped: the reader is gone
    }

    /// With a hand-off executor, the results that come while the reader waits wake it once, through that executor,
    /// and the reader then takes them from the buffer without waiting (decision 0035's second addendum).
    @Test(.timeLimit(.minutes(10))) func aHandOffWakesTheWaitingReaderOncePerBatch() async throws {
        let handOff = HeldJobsExecutor()
        let buffer = QueueResultBuffer(handOff: handOff)
        let reader = Self.reader(of: buffer)
        try await Self.waitUntil { buffer.hasWaitingReader }
        for number in UInt64(1)...100 { buffer.yield(Self.result(number)) }
        #expect(handOff.heldCount == 1, "one wake-up for the batch")
        #expect(buffer.hasWaitingReader, "the reader waits until the hand-off runs")
        handOff.runHeld()
        try await Self.waitUntil { buffer.hasWaitingReader }  // took the 100 and waits for more
        #expect(handOff.heldCount == 0)
        buffer.yield(Self.result(101))
        #expect(handOff.heldCount == 1, "a later result schedules a new wake-up")
        handOff.runHeld()
        try await Self.waitUntil { buffer.hasWaitingReader }
        buffer.finish()
        #expect(await reader.value == Array(1...101))
    }

    /// A finish while a wake-up is still on its way hands the buffered results out first; the late wake-up finds
    /// nobody to wake.
    @Test(.timeLimit(.minutes(10))) func aFinishBeforeTheHandOffRanStillDeliversTheBufferedResults() async throws {
        let handOff = HeldJobsExecutor()
        let buffer = QueueResultBuffer(handOff: handOff)
        let reader = Self.reader(of: buffer)
        try await Self.waitUntil { buffer.hasWaitingReader }
        for number in UInt64(1)...3 { buffer.yield(Self.result(number)) }
        buffer.finish()
        #expect(await reader.value == [1, 2, 3])
        handOff.runHeld()  // the wake-up scheduled before the finish: nothing left to do
        #expect(!buffer.hasWaitingReader)
    }

    /// A task that reads `buffer`'s sequence to its end and returns the request IDs it read.
    static func reader(of buffer: QueueResultBuffer) -> Task<[UInt64], Never> {
        Task {
            var read: [UInt64] = []
            for await result in buffer.stream() { read.append(result.requestID.rawValue) }
            return read
        }
    }

    /// Polls `condition` until it holds, for up to five minutes: the reader's task may wait long for a cooperative
    /// thread while the whole suite runs beside two busy loops (a CI run took 140 s).
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(condition(), "timed out waiting")
    }
}

/// A task executor that holds its jobs until the test runs them: what a transport's hand-off executor does until its
/// loop round ends.
private final class HeldJobsExecutor: TaskExecutor, @unchecked Sendable {  // jobs guarded by the mutex
    private let jobs = Mutex<[UnownedJob]>([])

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
    }

    var heldCount: Int { jobs.withLock { $0.count } }

    /// Runs the jobs held now on this thread.
    func runHeld() {
        let held = jobs.withLock { jobs -> [UnownedJob] in
            defer { jobs = [] }
            return jobs
        }
        for job in held { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
