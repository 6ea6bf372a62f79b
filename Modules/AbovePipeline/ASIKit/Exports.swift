// The umbrella: one `import ASIKit` gives the everyday stack. Apps that want to link less import the modules one
// by one instead (`HTTPPipeline` plus the plug-ins they pick); nothing here is needed for that.
@_exported public import BrotliCodec
@_exported public import GzipCodec
@_exported public import HTTPAuthentication
@_exported public import HTTPCore
@_exported public import HTTPPipeline
@_exported public import PublicSuffix
@_exported public import SocketTransport
@_exported public import TerminalProgress
@_exported public import Throttle
@_exported public import ZstdCodec
