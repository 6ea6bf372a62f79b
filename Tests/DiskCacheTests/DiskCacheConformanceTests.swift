import DiskCache
import Foundation
import HTTPCore
import HTTPTesting
import TestSupport
import Testing

/// The store against the `CacheStore` contract, on a fresh directory per check.
struct DiskCacheConformanceTests {
    @Test func passesTheConformanceSuite() async throws {
        let root = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var count = 0
        try await CacheStoreConformance.run(declinesEntriesOver: 64 << 10) {
            count += 1
            return DiskCacheStore(
                configuration: .init(directory: "\(root)/store\(count)", maxEntrySize: 64 << 10))
        }
    }

    @Test func passesTheConformanceSuiteWithoutFlushing() async throws {
        let root = try DataPath.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var count = 0
        try await CacheStoreConformance.run {
            count += 1
            return DiskCacheStore(configuration: .init(directory: "\(root)/s\(count)", synchronizesWrites: false))
        }
    }
}
