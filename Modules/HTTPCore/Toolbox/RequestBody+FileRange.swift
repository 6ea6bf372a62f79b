extension RequestBody {
    /// A replayable body over `length` bytes of the file at `path` from `offset`, read in ``fileChunkSize`` pieces
    /// as it is sent (each send reads afresh), so a part never sits in memory whole. `package`: the S3 multipart
    /// upload and the CloudFiles large-object upload send their parts and segments with it.
    package static func fileRange(path: String, offset: Int64, length: Int64) -> RequestBody {
        .stream(length: length, isReplayable: true) {
            Chunks(FileChunkReader(path: path, start: offset, length: length, chunkSize: fileChunkSize))
        }
    }
}
