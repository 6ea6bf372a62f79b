#!/usr/bin/env bash
# Installs what building every target and running every test with its real peers needs, and nothing that is
# already there: Debian's packages (apt-get, with sudo when not root) and the Python peers (pip). Run by
# scripts/test.sh (the README's test command) and .ci/run, so a fresh machine needs nothing installed by hand.
# A second run installs nothing and takes a second or two (asking python3 whether each peer imports).
#
# What each package is for:
#   zlib1g-dev, libssl-dev   the design's two system libraries (GzipCodec; SocketTransport, FileKeyring, ...)
#   duktape-dev              ProxyPAC compiles Debian's Duktape amalgamation (decision 0016); the one -dev package
#                            beyond the design's two that a library target needs
#   libnghttp2-dev           the HTTP2 plug-in's CNGHTTP2 shim (decision 0031); the runtime libnghttp2-14 is on a
#                            fresh machine already (curl links it), the headers are not. Only HTTP2 needs it
#   pkg-config               how SwiftPM finds zlib, OpenSSL and nghttp2
#   nginx, tinyproxy, apache2, apache2-utils, squid, microsocks
#                            the interop tests' real peers, started by the tests on free ports (squid's basic,
#                            digest and NTLM helpers; microsocks is the SOCKS5 proxy)
#   curl, openssl            the tests compare with curl and make certificates with openssl
#   strace                   the request budget tests count system calls per request with it
#   media-types              /etc/mime.types for the form tests' MIME guesses
#   publicsuffix             the system's Public Suffix List, which libpsl (opened at run time, decision 0023)
#                            prefers when newer than its built-in copy
#   libxml2                  the S3 plug-in opens it at run time (decision 0021)
#   libbrotli1, libzstd1     BrotliCodec and ZstdCodec open them at run time (decision 0024); no -dev package
#   swift swift-proxy swift-account swift-container swift-object python3-swift memcached
#                            a real OpenStack Swift object store for the CloudFiles tests (OpenStackSwiftPeer starts
#                            its own on free ports; decision 0026)
#   python3-swiftclient      python-swiftclient, the reference client the CloudFiles tests compare with. Debian
#                            installs its CLI as /usr/bin/swift, which would shadow the Swift toolchain (`swift build`
#                            would run the storage client): it is diverted to /usr/bin/swiftclient first (below)
#   brotli, zstd             the tools that compress the br and zstd test bodies nginx serves
#   wget                     the WebPage tests compare the archiver with `wget -p -k -H` on the same site
#   (nothing new)            the impaired-link tests (decision 0029) need only nsenter and unshare, from
#                            util-linux (essential: on every Debian machine), and build their forwarder with
#                            the toolchain's clang through SwiftPM; they need root for /dev/net/tun
#   pip: pacparser           the reference PAC evaluator asi --pac-test is compared with
#   pip: httpbin, gunicorn   the httpbin peer
#   pip: moto[server]        the S3-compatible server of the S3 tests
#   pip: html5lib            the reference HTML parser the WebPage tokenizer is compared with
#   nghttp2-server           nghttpd, the HTTP/2 tests' second real h2 server beside nginx (decision 0031)
#   pip: h2                  python's HTTP/2 state machine, for the scripted fault server of the HTTP/2 tests
#                            (GOAWAY mid-flight, RST_STREAM, a server that never sends SETTINGS)
#
# Usage: scripts/install-dependencies.sh [--build-only]
#   --build-only  only what `swift build` needs (the -dev packages and pkg-config), no peers
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive
sudo=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then
    sudo="sudo"
    # CI has no terminal to ask for a password.
    if [ ! -t 0 ]; then sudo="sudo -n"; fi
fi

packages=(zlib1g-dev libssl-dev duktape-dev libnghttp2-dev pkg-config)
if [ "${1:-}" != "--build-only" ]; then
    packages+=(nginx tinyproxy apache2 apache2-utils squid microsocks curl openssl strace media-types publicsuffix libxml2
        libpsl5 libbrotli1 libzstd1 brotli zstd wget
        swift swift-proxy swift-account swift-container swift-object python3-swift memcached python3-swiftclient)
    # ip, for the Happy Eyeballs test's private network namespace (a veth pair and a blackholed IPv6 neighbour).
    packages+=(iproute2)
    # nghttpd, the HTTP/2 tests' second h2 server.
    packages+=(nghttp2-server)
    # The Python peers come from PyPI through pip; Debian's python3-pip where the machine's python3 has none.
    if ! python3 -m pip --version >/dev/null 2>&1; then packages+=(python3 python3-pip); fi
fi
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
# python3-swiftclient's /usr/bin/swift must never shadow the Swift toolchain: divert it before the package lands
# (--rename also moves a file already installed), so that it is installed as /usr/bin/swiftclient.
if [ "${1:-}" != "--build-only" ] && ! dpkg-divert --list /usr/bin/swift 2>/dev/null | grep -q swiftclient; then
    if [ "$(id -u)" != 0 ] && [ -z "$sudo" ]; then
        echo "install-dependencies: not root and no sudo: run as root once to divert /usr/bin/swift" >&2
        exit 1
    fi
    $sudo dpkg-divert --local --rename --divert /usr/bin/swiftclient --add /usr/bin/swift
fi
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ] && [ -z "$sudo" ]; then
        echo "install-dependencies: missing ${missing[*]}; not root and no sudo: install them as root" >&2
        exit 1
    fi
    echo "apt-get install ${missing[*]}"
    # Keep Debian's postinst scripts from starting nginx, apache2 or squid as system services; the tests start
    # their own. The policy file is removed however this script ends.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
        $sudo chmod +x /usr/sbin/policy-rc.d
        trap '$sudo rm -f /usr/sbin/policy-rc.d' EXIT
    fi
    $sudo apt-get update -q
    $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ "${1:-}" = "--build-only" ]; then exit 0; fi

# pip_install MODULES PACKAGE...: installs the packages unless python3 can import every module named.
pip_install() {
    local modules="$1"
    shift
    if python3 -c "import $modules" 2>/dev/null; then return 0; fi
    echo "pip install $*"
    local args=(install -q --disable-pip-version-check --root-user-action=ignore "$@")
    python3 -m pip "${args[@]}" || python3 -m pip "${args[@]}" --break-system-packages
}
pip_install pacparser pacparser
pip_install "httpbin, gunicorn" httpbin gunicorn
pip_install "moto.server, boto3" 'moto[server]'
pip_install html5lib html5lib
pip_install h2 h2
