import HTTPCore
import Tracing

/// Writes an instrument's propagation values (for example `traceparent`) into request header fields.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HTTPFields) {
        guard let name = HTTPField.Name(key) else { return }
        carrier[name] = value
    }
}
