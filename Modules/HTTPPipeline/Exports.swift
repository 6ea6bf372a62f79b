// The pipeline's API is written in HTTPCore's types (Request, Response, ClientError, ...); re-exported so that
// `import HTTPPipeline` is enough for an app.
@_exported public import HTTPCore
