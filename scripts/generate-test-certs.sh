#!/usr/bin/env bash
# Makes the TLS fixtures the tests use: a test CA, server certificates for the right and a wrong host name, and
# a client identity (PEM and PKCS#12), all signed by that CA and valid for ten years.
#
# Usage: scripts/generate-test-certs.sh DIR
#
# Writes into DIR (created if missing):
#   ca.pem, ca.key                 the test CA ("ASIKit Test CA")
#   server.pem, server.key         CN=localhost, SAN DNS:localhost, IP:127.0.0.1, IP:::1
#   wrong.pem, wrong.key           CN=wrong.example, SAN DNS:wrong.example only (a name mismatch on localhost)
#   client.pem, client.key         CN=asikit-test-client, extendedKeyUsage=clientAuth
#   client.p12                     client.pem + client.key + ca.pem as PKCS#12, password "test"
#   client-encrypted.key           client.key encrypted with the password "test" (PKCS#8, AES-256)
#
# Nothing here is secret: the tests run this script into a temporary directory at run time, so no key is
# committed (see Tests/TestSupport/Certificates/TestCertificates.swift). Needs only the openssl CLI.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
out="$1"
mkdir -p "$out"
cd "$out"

days=3650
tmp="$(mktemp -d "${TMPDIR:-/tmp}/asikit-certs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

quiet() { # runs a command, showing its output only when it fails
    local log
    log="$("$@" 2>&1)" || { printf '%s\n' "$log" >&2; echo "generate-test-certs: failed: $*" >&2; return 1; }
}

# EC P-256 keys: quick to make, and every TLS peer we test against accepts them.
newkey() { quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

# The CA.
newkey ca.key
cat >"$tmp/ca.ext" <<'CONF'
[req]
distinguished_name = dn
x509_extensions = v3_ca
prompt = no
[dn]
CN = ASIKit Test CA
O = ASIKit Tests
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CONF
quiet openssl req -x509 -new -key ca.key -out ca.pem -days "$days" -sha256 -config "$tmp/ca.ext"

serial=1
sign() { # sign NAME SUBJECT EXTENSIONS: NAME.key -> NAME.pem signed by the CA
    local name="$1" subject="$2" ext="$3"
    newkey "$name.key"
    quiet openssl req -new -key "$name.key" -subj "$subject" -out "$tmp/$name.csr"
    printf '%s\n' "$ext" >"$tmp/$name.ext"
    quiet openssl x509 -req -in "$tmp/$name.csr" -CA ca.pem -CAkey ca.key -set_serial "$serial" \
        -days "$days" -sha256 -extfile "$tmp/$name.ext" -out "$name.pem"
    serial=$((serial + 1))
}

leaf='basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
authorityKeyIdentifier = keyid'

sign server "/CN=localhost/O=ASIKit Tests" "$leaf
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1"

sign wrong "/CN=wrong.example/O=ASIKit Tests" "$leaf
extendedKeyUsage = serverAuth
subjectAltName = DNS:wrong.example"

sign client "/CN=asikit-test-client/O=ASIKit Tests" "$leaf
extendedKeyUsage = clientAuth"

# PKCS#12 with OpenSSL 3's defaults (AES-256-CBC, PBKDF2), which the OpenSSL the transport links reads.
quiet openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -name asikit-test-client \
    -passout pass:test -out client.p12
quiet openssl pkcs12 -in client.p12 -passin pass:test -noout
quiet openssl pkcs8 -topk8 -v2 aes-256-cbc -in client.key -passout pass:test -out client-encrypted.key

# Check what was made: every leaf chains to the CA, with the intended names.
quiet openssl verify -CAfile ca.pem -purpose sslserver server.pem wrong.pem
quiet openssl verify -CAfile ca.pem -purpose sslclient client.pem
if [ "$(openssl x509 -in server.pem -noout -checkhost localhost -checkip 127.0.0.1 | grep -c 'does match')" != 2 ]; then
    echo "generate-test-certs: server.pem does not match localhost and 127.0.0.1" >&2
    exit 1
fi
if openssl x509 -in wrong.pem -noout -checkhost localhost 2>/dev/null | grep -q 'does match'; then
    echo "generate-test-certs: wrong.pem unexpectedly matches localhost" >&2
    exit 1
fi

chmod 644 ./*.pem ./*.key client.p12
