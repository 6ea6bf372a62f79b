import FoundationEssentials
import HTTPCore
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
        let reader = Task {
            var read: [UInt64] = []
            for await result in buffer.stream() { read.append(result.requestID.rawValue) }
            return read
        }
        for number in UInt64(1)...50 {
            buffer.yield(Self.result(number))
            await Task.yield()
        }
        buffer.finish()
        #expect(await reader.value == Array(1...50))
    }

    @Test(.timeLimit(.minutes(1))) func aCancelledReaderEndsItsSequence() async {
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
}
