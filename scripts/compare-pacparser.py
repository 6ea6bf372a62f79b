#!/usr/bin/env python3
"""Compares `asi --pac F --pac-test URL` with pacparser (PyPI) on every PAC file and URL of a corpus.

Usage: compare-pacparser.py ASI CORPUS_DIR [--write-expected FILE]

Every `*.pac` file in CORPUS_DIR is evaluated for every URL in CORPUS_DIR/urls.txt, by pacparser's
`just_find_proxy(F, URL)` (Microsoft's extensions enabled, so that `*Ex` functions and `FindProxyForURLEx` exist)
and by `asi`. A pacparser error counts as the answer "DIRECT" (asi routes directly when a PAC file fails).
Exit status 0 when every answer matches, 1 otherwise, 2 when pacparser is missing. With --write-expected, the
pacparser answers are also written as `file<TAB>url<TAB>answer` lines (the library tests read that file).
"""
import os
import subprocess
import sys

try:
    import pacparser
except ImportError:
    print("pacparser is not installed (pip install pacparser)", file=sys.stderr)
    sys.exit(2)


def reference(pac, url):
    try:
        return pacparser.just_find_proxy(pac, url)
    except Exception:  # pacparser raises for a script that fails; asi answers DIRECT then
        return "DIRECT"


def main():
    asi, corpus = sys.argv[1], sys.argv[2]
    expected_out = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--write-expected" else None
    pacparser.enable_microsoft_extensions()
    with open(os.path.join(corpus, "urls.txt")) as f:
        urls = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    pacs = sorted(name for name in os.listdir(corpus) if name.endswith(".pac"))
    failures, rows = 0, []
    for name in pacs:
        path = os.path.join(corpus, name)
        for url in urls:
            want = reference(path, url)
            run = subprocess.run([asi, "--pac", path, "--pac-test", url], capture_output=True, timeout=60)
            got = run.stdout.decode("utf-8", "replace")
            got = got[:-1] if got.endswith("\n") else got
            rows.append(f"{name}\t{url}\t{want}")
            if run.returncode != 0 or got != want:
                failures += 1
                print(f"MISMATCH {name} {url}\n  pacparser: {want!r}\n  asi:       {got!r} (exit {run.returncode})")
    if expected_out:
        with open(expected_out, "w") as f:
            f.write("\n".join(rows) + "\n")
    total = len(pacs) * len(urls)
    print(f"pacparser {pacparser.version()}: {total - failures}/{total} answers match ({len(pacs)} PAC files)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
