// The currency types for methods, status codes and header fields come from apple/swift-http-types;
// re-exported so `import HTTPCore` is enough to build a request.
@_exported public import HTTPTypes
