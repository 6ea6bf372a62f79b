#!/usr/bin/env bash
# Regenerates Sources/EchoAPI from openapi.yaml with swift-openapi-generator 1.14.3. CI does not run this: the
# generated Swift is committed, so no build compiles the generator. Usage:
#   GENERATOR=/path/to/swift-openapi-generator Examples/OpenAPIClient/generate.sh
# (build it once from a checkout of apple/swift-openapi-generator at 1.14.3:
#  `swift build --product swift-openapi-generator`).
# The generator names `Foundation`'s URL, Data and Date; they are the same types in FoundationEssentials, which
# the imports and names are switched to so the example loads no libFoundation.so (scripts/check-linkage.sh checks it).
set -euo pipefail
cd "$(dirname "$0")"
"${GENERATOR:?set GENERATOR to the swift-openapi-generator executable}" generate openapi.yaml \
    --config openapi-generator-config.yaml --output-directory Sources/EchoAPI
sed -i -E 's/([^A-Za-z_])Foundation\./\1FoundationEssentials./g' Sources/EchoAPI/*.swift
