@_exported import S3
