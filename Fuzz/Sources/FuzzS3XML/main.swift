// Fuzzes the S3 plug-in's XML answers (S3ResponseParser over libxml2): list pages, bucket lists, multipart
// answers and error documents, which come from whatever server the endpoint names.
//
// Input: byte 0 picks the document (list page, buckets, upload id, ETag, error); the rest is the body.
// Invariants: a parse either returns or throws an S3Error or a ClientError with the protocolViolation code; an
// error document's status is kept; nothing traps, however deep or large the XML.
import FuzzSupport
import HTTPCore
import S3

@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    guard let selector = input.bytes.first else { return 0 }
    let body = Array(input.bytes.dropFirst())
    do {
        switch selector % 5 {
        case 0:
            _ = try S3ResponseParser.listPage(body)
        case 1: _ = try S3ResponseParser.buckets(body)
        case 2: _ = try S3ResponseParser.uploadID(body)
        case 3: _ = try S3ResponseParser.eTag(body, root: "CompleteMultipartUploadResult")
        default:
            let error = S3ResponseParser.error(status: 400 + Int(selector % 100), body: body)
            fuzzCheck(error.status == 400 + Int(selector % 100), "the status changed")
        }
    } catch is S3Error {
    } catch {
        fuzzCheckClientError(error, codes: [.protocolViolation])
    }
    return 0
}

runLibFuzzer { fuzz($0, $1) }
