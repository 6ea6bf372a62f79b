#!/usr/bin/env python3
"""Writes the seed corpora in Fuzz/Corpus/<target>/ (run from anywhere; deterministic, so re-running is a no-op).

Sources: the llhttp response cases in ../shared/corpora/http1/cases.json (relative to the repository), cookie lines
from ../shared/corpora/cookies/parser.json, .netrc files embedded in ../shared/corpora/netrc/curl-tests, challenges
from ../shared/corpora/auth/curl-tests, and small examples made here (gzip/deflate bodies, NTLM, keyring, cache).
Each seed carries the control prefix its target expects (see the target's main.swift).
"""
import base64, gzip, hashlib, json, os, re, struct, sys, zlib

FUZZ = os.path.dirname(os.path.abspath(__file__))
CORPORA = os.environ.get("ASI_CORPORA", os.path.join(FUZZ, "..", "..", "shared", "corpora"))
if not os.path.isdir(CORPORA):
    CORPORA = os.path.join(FUZZ, "..", "..", "..", "shared", "corpora")  # a worktree under /work/wt


def write(target, name, data):
    directory = os.path.join(FUZZ, "Corpus", target)
    os.makedirs(directory, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name)
    with open(os.path.join(directory, safe), "wb") as f:
        f.write(data)


def http1():
    # Control prefix: 5 control bytes: method index (0 GET, 2 HEAD, 3 CONNECT), then four split-length bytes.
    methods = {"GET": 0, "HEAD": 2, "CONNECT": 3, "POST": 4}
    with open(os.path.join(CORPORA, "http1", "cases.json")) as f:
        cases = json.load(f)
    for case in cases:
        raw = base64.b64decode(case["raw_b64"])
        method = methods.get(case.get("request_method") or "GET", 0)
        write("FuzzHTTP1Response", case["id"].replace(":", "-"), bytes([0x05, method, 3, 17, 1, 40]) + raw)
    return len(cases)


def cookies():
    with open(os.path.join(CORPORA, "cookies", "parser.json")) as f:
        tests = json.load(f)
    count = 0
    for test in tests:
        lines = "\n".join(test["received"]).encode("utf-8", "surrogateescape")
        if len(lines) <= 512 and count < 120:
            write("FuzzSetCookie", test["test"], lines)
            count += 1
    return count


def netrc():
    count = 0
    directory = os.path.join(CORPORA, "netrc", "curl-tests")
    for name in sorted(os.listdir(directory)):
        if not name.startswith("test"):
            continue
        with open(os.path.join(directory, name), "rb") as f:
            text = f.read()
        for index, match in enumerate(re.finditer(rb'<file name="[^"]*netrc[^"]*"[^>]*>\n?(.*?)</file>', text, re.S)):
            write("FuzzNetrc", f"{name}-{index}", match.group(1))
            count += 1
    write("FuzzNetrc", "quoted", b'machine "example.com" login "a b" password "p\\"q"\ndefault login anon password x\n')
    write("FuzzNetrc", "macdef", b"macdef init\ncd /pub\n\nmachine h login u password p\n")
    return count + 2


def challenges():
    count = 0
    directory = os.path.join(CORPORA, "auth", "curl-tests")
    seen = set()
    for name in sorted(os.listdir(directory)):
        if not name.startswith("test"):
            continue
        with open(os.path.join(directory, name), "rb") as f:
            for line in f:
                match = re.match(rb"(?i)(?:WWW|Proxy)-Authenticate:\s*(.*?)\r?$", line.rstrip(b"\n"))
                if match and match.group(1) not in seen:
                    seen.add(match.group(1))
                    write("FuzzChallenge", f"{name}-{count}", match.group(1))
                    count += 1
    with open(os.path.join(CORPORA, "auth", "vectors.json")) as f:
        vectors = json.load(f)
    for vector in vectors.get("digest", []):
        if vector.get("challenge"):
            write("FuzzChallenge", vector["id"], vector["challenge"].encode())
            count += 1
    write("FuzzChallenge", "multi", b'Basic realm="a", Digest realm="b", nonce="n", qop="auth,auth-int", '
          b'algorithm=SHA-256-sess, userhash=true\nNewauth realm="apps", type=1, title="Login to \\"apps\\""')
    return count + 1


def gzip_bodies():
    text = b"Hello, fuzzing world! " * 20 + bytes(range(256))
    # Control prefix: 3 control bytes: encoding (even gzip, odd deflate), two split lengths.
    write("FuzzGzip", "gzip", bytes([0x03, 0, 5, 30]) + gzip.compress(text, mtime=0))
    write("FuzzGzip", "gzip-two-members", bytes([0x03, 0, 9, 1]) + gzip.compress(b"one", mtime=0)
          + gzip.compress(b"two", mtime=0))
    write("FuzzGzip", "zlib", bytes([0x03, 1, 2, 60]) + zlib.compress(text))
    raw = zlib.compressobj(wbits=-15)
    write("FuzzGzip", "raw-deflate", bytes([0x03, 1, 7, 7]) + raw.compress(text) + raw.flush())
    write("FuzzGzip", "zeros", bytes([0x01, 0]) + gzip.compress(bytes(200_000), mtime=0))
    return 5


def cookie_files():
    write("FuzzCookieFile", "curl-jar", b"# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n\n"
          b".example.com\tTRUE\t/\tFALSE\t2147483647\tname\tvalue\n"
          b"#HttpOnly_www.example.com\tFALSE\t/path\tTRUE\t0\tsession\tabc\r\n"
          b"host.example\tFALSE\t/\tFALSE\t1700000000\tempty\t\n")
    write("FuzzCookieFile", "malformed", b"too\tfew\tfields\n\n.a.b\tTRUE\t/\tX\t1\tn\tv\n")
    # Found by scripts/fuzz.sh (issue 33): a combining mark and bytes that are not UTF-8 at the start of a domain.
    write("FuzzCookieFile", "combining-mark-domain", b"\xcc\x9a\x87\x9emple.com\tTRUE\t/\tFALSE\t1895494547\tnaO")
    return 3


def ntlm():
    # A type 2 message with target info (MsvAvTimestamp), as in MS-NLMP 4.2.4.3.
    info = struct.pack("<HH", 2, 12) + "DOMAIN".encode("utf-16-le") + struct.pack("<HHQ", 7, 8, 0x01D0000000000000)
    info += struct.pack("<HH", 0, 0)
    target = "Server".encode("utf-16-le")
    header_size = 48
    message = b"NTLMSSP\0" + struct.pack("<I", 2)
    message += struct.pack("<HHI", len(target), len(target), header_size)
    message += struct.pack("<I", 0xE28A8235) + bytes(range(1, 9))
    message += bytes(8) + struct.pack("<HHI", len(info), len(info), header_size + len(target))
    write("FuzzNTLM", "challenge", message + target + info)
    write("FuzzNTLM", "minimal", b"NTLMSSP\0" + struct.pack("<I", 2) + bytes(8) + struct.pack("<I", 0x8201)
          + bytes(range(8)))
    return 2


def keyring():
    header = b"ASIKEYRG" + bytes([2, 1, 14, 8, 1, 0, 0, 0]) + bytes(range(16)) + bytes(16) + bytes(12)
    payload_length = 40
    write("FuzzKeyringFile", "header", bytes([0]) + header + struct.pack(">I", payload_length)
          + bytes(payload_length + 16))
    keyfile = b"ASIKEYRG" + bytes([1, 0, 0, 0, 0, 0, 0, 0]) + bytes(44) + struct.pack(">I", 0) + bytes(16)
    write("FuzzKeyringFile", "header-v1-keyfile", bytes([0]) + keyfile)

    def string(text):
        return struct.pack(">I", len(text)) + text

    entry = bytes([0]) + string(b"https") + string(b"example.com") + struct.pack(">I", 443)
    entry += bytes([1]) + string(b"realm") + string(b"user") + string(b"secret") + bytes([0]) + bytes([0])
    write("FuzzKeyringFile", "payload-v2", bytes([3]) + struct.pack(">I", 1) + entry)
    write("FuzzKeyringFile", "payload-v1", bytes([1]) + struct.pack(">I", 1) + entry[:-1])
    return 4


def cache_head():
    # The payload of a head file (DiskCache's ByteWriter: little-endian, strings as u32 length + UTF-8).
    def string(data):
        return struct.pack("<I", len(data)) + data

    payload = string(b"GET https://example.com/") + string(b"body-0001") + struct.pack("<Q", 5)
    payload += struct.pack("<H", 200) + string(b"OK") + struct.pack("<d", 800000000.0)
    payload += bytes([1]) + struct.pack("<d", 800003600.0) + bytes([0])
    payload += struct.pack("<I", 2) + string(b"Content-Type") + string(b"text/plain")
    payload += string(b"Cache-Control") + string(b"max-age=3600")
    payload += struct.pack("<I", 1) + string(b"Accept-Encoding") + string(b"gzip")
    write("FuzzCacheHead", "payload", payload)
    file = b"ASIDCH" + struct.pack("<HI", 1, len(payload)) + payload
    write("FuzzCacheHead", "whole-file", file + hashlib.sha256(file).digest())
    return 2


def webpage():
    pages = {
        "page": b'<!DOCTYPE html><base href="/s/"><link rel=stylesheet href=a.css><img src="a.png" '
        b'srcset="b.png 1x, c.png 2x" data-src=d.png><style>@import "e.css"; p{background:url(f.png)}</style>'
        b'<div style="background:url(&quot;g.png&quot;)"><script>x="<img src=no.png>"</script><!-- c -->',
        "css": b'@import url("a.css"); @import \'b.css\'; x{background:url( c.png ) url(\'d\\\'.png\')}/* url(e) */',
        "latin1": b'<meta charset=iso-8859-1><img src="caf\xe9.png" alt=\xe9><a href=x?a=1&amp;b>',
        "broken": b'<img src=a.png alt=<<>> ="w" / ><p a b=c<img src="b.png"><!--> <style>url("x',
    }
    for name, data in pages.items():
        write("FuzzWebPage", name, data)
    return len(pages)


def pac_answers():
    # No control prefix: the input is what FindProxyForURL returned. The answers the PAC corpus expects
    # (Tests/ProxyPACTests/Corpus/expected.tsv, third column), and a few written here.
    answers = set()
    with open(os.path.join(FUZZ, "..", "Tests", "ProxyPACTests", "Corpus", "expected.tsv")) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) > 2:
                answers.add(fields[2].split(" ; ")[0])
    answers.update([
        "DIRECT", "PROXY a:8080; SOCKS5 b:1080; DIRECT", "HTTPS [::1]:8443;SOCKS4 10.0.0.1", "proxy  x ;; direct",
        "PROXY [fe80::1%eth0]:3128", "PROXY a:0; PROXY b:65536; PROXY c:-1; PROXY d:8080",
        ";".join(f"PROXY p{i}:{1000 + i}" for i in range(40)),
        "PROXY [[eth0]",  # found by the long run of issue 33: a bracket left inside the host
        "PROXY a:1; PROXY \u0312:80",  # and a host that was a lone combining mark
    ])
    for index, answer in enumerate(sorted(answers)):
        write("FuzzPACAnswer", f"answer-{index}", answer.encode())
    return len(answers)


def s3_xml():
    # Control prefix: 1 byte, the document (0 list page, 1 buckets, 2 upload id, 3 ETag, 4 error).
    ns = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"'
    docs = {
        "list": (0, f'<?xml version="1.0" encoding="UTF-8"?><ListBucketResult {ns}><Name>b</Name>'
                    "<KeyCount>2</KeyCount><IsTruncated>true</IsTruncated><NextContinuationToken>t</NextContinuationToken>"
                    "<Contents><Key>a.txt</Key><Size>5</Size><ETag>&quot;e&quot;</ETag>"
                    "<LastModified>2026-01-01T00:00:00.000Z</LastModified><StorageClass>STANDARD</StorageClass></Contents>"
                    "<CommonPrefixes><Prefix>dir/</Prefix></CommonPrefixes></ListBucketResult>"),
        "buckets": (1, f"<ListAllMyBucketsResult {ns}><Buckets><Bucket><Name>b</Name>"
                       "<CreationDate>2026-01-01T00:00:00.000Z</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>"),
        "upload-id": (2, f"<InitiateMultipartUploadResult {ns}><Bucket>b</Bucket><Key>k</Key>"
                         "<UploadId>VXBsb2FkIElE</UploadId></InitiateMultipartUploadResult>"),
        "etag": (3, f"<CompleteMultipartUploadResult {ns}><ETag>&quot;abc-2&quot;</ETag></CompleteMultipartUploadResult>"),
        "error": (4, "<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message>"
                     "<Key>k</Key><RequestId>r</RequestId></Error>"),
        "entity": (0, '<!DOCTYPE a [<!ENTITY e "x">]><ListBucketResult><Name>&e;</Name></ListBucketResult>'),
        "deep": (1, "<a>" * 300 + "</a>" * 300),
    }
    for name, (selector, text) in docs.items():
        write("FuzzS3XML", name, bytes([selector]) + text.encode())
    return len(docs)


if __name__ == "__main__":
    counts = {
        "FuzzHTTP1Response": http1(), "FuzzSetCookie": cookies(), "FuzzNetrc": netrc(),
        "FuzzChallenge": challenges(), "FuzzGzip": gzip_bodies(), "FuzzCookieFile": cookie_files(),
        "FuzzNTLM": ntlm(), "FuzzKeyringFile": keyring(), "FuzzCacheHead": cache_head(),
        "FuzzWebPage": webpage(),
        "FuzzPACAnswer": pac_answers(), "FuzzS3XML": s3_xml(),
    }
    for target, count in counts.items():
        print(f"{target}: {count} seeds", file=sys.stderr)
