#!/usr/bin/env bash
# Makes the certificates of the TLS trust matrix (Docs/Guide/09-TLS.md, decision 0027): one leaf per way a
# server's certificate can be wrong, in the style of badssl.com, for the tests that run each case through asi
# and curl side by side (Tests/ASICommandTests/Flags/ASICommandTrustMatrixTests.swift).
#
# Usage: scripts/generate-trust-matrix-certs.sh DIR
#
# Writes into DIR (created if missing), every NAME as NAME.pem (the certificate, then any chain the server
# sends) and NAME.key:
#   root.pem                the trusted test root (the clients get it with --cacert)
#   other-root.pem          a root nobody trusts
#   good                    SAN DNS:localhost, IP:127.0.0.1, IP:::1
#   expired, not-yet-valid  as good, valid 2020-2021 and 2090-2091
#   self-signed             as good, signed by its own key
#   untrusted-root          as good, signed by other-root
#   chained, missing-intermediate  signed by an intermediate CA; the first sends it, the second does not
#   wrong-host              SAN DNS:wrong.example
#   wildcard                SAN DNS:*.a.test           (matches x.a.test only; not a.test, not x.y.a.test)
#   partial-wildcard        SAN DNS:f*.a.test          (no match for foo.a.test: RFC 9525 allows only "*.")
#   inner-wildcard          SAN DNS:x.*.test           (a wildcard that is not the left-most label)
#   tld-wildcard            SAN DNS:*.test             (too wide)
#   ip-wildcard             SAN DNS:*.0.0.1            (a wildcard never matches an IP address)
#   ip-san                  SAN IP:127.0.0.1 only
#   ip-as-dns-san           SAN DNS:127.0.0.1          (an IP address only matches an IP SAN)
#   ip-in-cn                CN=127.0.0.1, SAN DNS:localhost
#   ip-in-cn-only           CN=127.0.0.1, no SAN
#   cn-only                 CN=localhost, no SAN
#   cn-ok-san-wrong         CN=localhost, SAN DNS:wrong.example
#   rsa1024                 as good, with a 1024-bit RSA key
#   sha1                    as good, signed with SHA-1
#   rsa2048                 as good, with a 2048-bit RSA key (the smallest RSA key security level 2 takes)
#   p384, p192              as good, with an EC P-384 key, or a P-192 key (96 bits: too weak for level 2)
#   client-eku              as good, but extendedKeyUsage clientAuth only (not for servers)
#   no-eku-no-ku            as good, without keyUsage and extendedKeyUsage (both optional)
#   not-a-ca-chain          signed by not-a-ca, an intermediate whose basicConstraints say CA:FALSE (sent)
#   expired-intermediate    signed by expired-ca, an intermediate that expired in 2021 (sent)
#   second-san              SAN DNS:other.example, DNS:localhost (the second name matches)
#   upper-san               SAN DNS:LOCALHOST (names compare case-insensitively)
# and dh1024.pem, 1024-bit DH parameters (RFC 5114's group, made at once) for a DHE server too weak for level 2;
# and, for pinning, NAME.pub.pem, NAME.pub.der (the public key) and NAME.pin (curl's sha256//BASE64) of good,
# self-signed and wrong-host.
#
# Nothing here is secret; the tests run this script into a temporary directory. Needs only the openssl CLI.
set -euo pipefail

if [ $# -ne 1 ]; then
    echo "usage: $0 DIR" >&2
    exit 2
fi
out="$1"
mkdir -p "$out"
cd "$out"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/asikit-matrix.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

quiet() { # runs a command, showing its output only when it fails
    local log
    log="$("$@" 2>&1)" || { printf '%s\n' "$log" >&2; echo "generate-trust-matrix-certs: failed: $*" >&2; return 1; }
}
eckey() { quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

# A CA: ca NAME SUBJECT [ISSUER]; self-signed without ISSUER.
ca() {
    local name="$1" subject="$2" issuer="${3:-}"
    eckey "$name.key"
    printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n' \
        >"$tmp/$name.ext"
    if [ -z "$issuer" ]; then
        quiet openssl req -x509 -new -key "$name.key" -subj "$subject" -days 3650 -sha256 -out "$name.pem" \
            -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
    else
        quiet openssl req -new -key "$name.key" -subj "$subject" -out "$tmp/$name.csr"
        quiet openssl x509 -req -in "$tmp/$name.csr" -CA "$issuer.pem" -CAkey "$issuer.key" -set_serial "$RANDOM$RANDOM" \
            -days 3650 -sha256 -extfile "$tmp/$name.ext" -out "$name.pem"
    fi
}

# An intermediate signed by root that is not a CA (CA:FALSE), and one that expired in 2021.
weak_intermediates() {
    eckey not-a-ca.key
    quiet openssl req -new -key not-a-ca.key -subj "/CN=ASIKit Not A CA/O=ASIKit Tests" -out "$tmp/not-a-ca.csr"
    printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,keyCertSign,cRLSign\n' >"$tmp/not-a-ca.ext"
    quiet openssl x509 -req -in "$tmp/not-a-ca.csr" -CA root.pem -CAkey root.key -set_serial "$RANDOM$RANDOM" \
        -days 3650 -sha256 -extfile "$tmp/not-a-ca.ext" -out not-a-ca.pem
    eckey expired-ca.key
    quiet openssl req -new -key expired-ca.key -subj "/CN=ASIKit Expired CA/O=ASIKit Tests" -out "$tmp/expired-ca.csr"
    mkdir -p "$tmp/db-expired-ca"
    : >"$tmp/db-expired-ca/index.txt"
    echo 1000 >"$tmp/db-expired-ca/serial"
    printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n' >"$tmp/expired-ca.ext"
    printf '[ca]\ndefault_ca = this\n[this]\ndatabase = %s\nnew_certs_dir = %s\nserial = %s\npolicy = anything\n[anything]\ncommonName = supplied\n' \
        "$tmp/db-expired-ca/index.txt" "$tmp/db-expired-ca" "$tmp/db-expired-ca/serial" >"$tmp/expired-ca.cnf"
    quiet openssl ca -batch -config "$tmp/expired-ca.cnf" -cert root.pem -keyfile root.key -md sha256 \
        -startdate 20200101000000Z -enddate 20210101000000Z -extfile "$tmp/expired-ca.ext" -notext \
        -in "$tmp/expired-ca.csr" -out expired-ca.pem
}

# A leaf: leaf NAME SUBJECT SAN|- ISSUER|self [KEYTYPE] [DIGEST] [STARTDATE ENDDATE]
leaf() {
    local name="$1" subject="$2" san="$3" issuer="$4" keytype="${5:-ec}" digest="${6:-sha256}"
    local start="${7:-}" end="${8:-}"
    case "$keytype" in
        ec) eckey "$name.key" ;;
        p384) quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out "$name.key" ;;
        p192) quiet openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime192v1 -out "$name.key" ;;
        rsa*) quiet openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:${keytype#rsa}" -out "$name.key" ;;
    esac
    {
        echo "basicConstraints=CA:FALSE"
        [ "${NO_KU:-}" = 1 ] || echo "keyUsage=critical,digitalSignature,keyEncipherment"
        [ "${NO_KU:-}" = 1 ] || echo "extendedKeyUsage=${EKU:-serverAuth}"
        [ "$san" = "-" ] || echo "subjectAltName=$san"
    } >"$tmp/$name.ext"
    quiet openssl req -new -key "$name.key" -subj "$subject" -out "$tmp/$name.csr"
    if [ "$issuer" = "self" ]; then
        quiet openssl x509 -req -in "$tmp/$name.csr" -signkey "$name.key" -days 3650 "-$digest" \
            -extfile "$tmp/$name.ext" -out "$name.pem"
    elif [ -n "$start" ]; then
        # Fixed validity dates need `openssl ca` (OpenSSL 3.0's x509 command has no start date).
        mkdir -p "$tmp/db-$name"
        : >"$tmp/db-$name/index.txt"
        cat >"$tmp/$name.cnf" <<CONF
[ca]
default_ca = this
[this]
database = $tmp/db-$name/index.txt
new_certs_dir = $tmp/db-$name
serial = $tmp/db-$name/serial
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
CONF
        echo "$(printf '%04X' $RANDOM)" >"$tmp/db-$name/serial"
        quiet openssl ca -batch -config "$tmp/$name.cnf" -cert "$issuer.pem" -keyfile "$issuer.key" -md "$digest" \
            -startdate "$start" -enddate "$end" -extfile "$tmp/$name.ext" -notext -in "$tmp/$name.csr" \
            -out "$name.pem"
    else
        quiet openssl x509 -req -in "$tmp/$name.csr" -CA "$issuer.pem" -CAkey "$issuer.key" \
            -set_serial "$RANDOM$RANDOM" -days 3650 "-$digest" -extfile "$tmp/$name.ext" -out "$name.pem"
    fi
}

good="DNS:localhost,IP:127.0.0.1,IP:::1"
ca root "/CN=ASIKit Trust Matrix Root/O=ASIKit Tests"
ca other-root "/CN=ASIKit Untrusted Root/O=ASIKit Tests"
ca intermediate "/CN=ASIKit Trust Matrix Intermediate/O=ASIKit Tests" root

leaf good /CN=localhost "$good" root
leaf expired /CN=localhost "$good" root ec sha256 20200101000000Z 20210101000000Z
leaf not-yet-valid /CN=localhost "$good" root ec sha256 20900101000000Z 20910101000000Z
leaf self-signed /CN=localhost "$good" self
leaf untrusted-root /CN=localhost "$good" other-root
leaf chained /CN=localhost "$good" intermediate
cat intermediate.pem >>chained.pem
leaf missing-intermediate /CN=localhost "$good" intermediate
leaf wrong-host /CN=wrong.example DNS:wrong.example root
leaf wildcard "/CN=*.a.test" "DNS:*.a.test" root
leaf partial-wildcard "/CN=f*.a.test" "DNS:f*.a.test" root
leaf inner-wildcard "/CN=x.*.test" "DNS:x.*.test" root
leaf tld-wildcard "/CN=*.test" "DNS:*.test" root
leaf ip-wildcard "/CN=*.0.0.1" "DNS:*.0.0.1" root
leaf ip-san /CN=ip-san "IP:127.0.0.1" root
leaf ip-as-dns-san /CN=ip-as-dns-san "DNS:127.0.0.1" root
leaf ip-in-cn /CN=127.0.0.1 DNS:localhost root
leaf ip-in-cn-only /CN=127.0.0.1 - root
leaf cn-only /CN=localhost - root
leaf cn-ok-san-wrong /CN=localhost DNS:wrong.example root
leaf rsa1024 /CN=localhost "$good" root rsa1024
leaf sha1 /CN=localhost "$good" root ec sha1
leaf rsa2048 /CN=localhost "$good" root rsa2048
leaf p384 /CN=localhost "$good" root p384
leaf p192 /CN=localhost "$good" root p192
EKU=clientAuth leaf client-eku /CN=localhost "$good" root
NO_KU=1 leaf no-eku-no-ku /CN=localhost "$good" root
weak_intermediates
leaf not-a-ca-chain /CN=localhost "$good" not-a-ca
cat not-a-ca.pem >>not-a-ca-chain.pem
leaf expired-intermediate /CN=localhost "$good" expired-ca
cat expired-ca.pem >>expired-intermediate.pem
leaf second-san /CN=localhost "DNS:other.example,DNS:localhost" root
leaf upper-san /CN=LOCALHOST "DNS:LOCALHOST" root
quiet openssl genpkey -genparam -algorithm DH -pkeyopt dh_rfc5114:1 -out dh1024.pem
for name in good self-signed wrong-host; do
    quiet openssl pkey -in "$name.key" -pubout -out "$name.pub.pem"
    quiet openssl pkey -in "$name.key" -pubout -outform DER -out "$name.pub.der"
    printf 'sha256//%s' "$(openssl dgst -sha256 -binary "$name.pub.der" | openssl base64 -A)" >"$name.pin"
done
rm -f other-root.key
