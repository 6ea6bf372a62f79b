#!/usr/bin/env python3
"""Names the frames of RequestBudget's allocation sites (ASIKIT_ALLOCATION_SITES=FILE, see Tests/RequestBudget).

Usage: Benchmarks/Scripts/allocation-sites.py FILE [TOP] [--full]
Prints the TOP (default 15) most frequent call stacks, each with its allocations per request and the first frames
outside the allocator and the Swift runtime's allocation entry points (all frames with --full), named by addr2line
and `swift demangle --simplified`.
"""
import collections
import subprocess
import sys

SKIP = ("malloc", "calloc", "realloc", "memalign", "recordSite", "counted", "swift_slowAlloc", "swift_allocObject",
        "swift_allocBox", "_swift_allocObject", "backtrace", "__libc_", "operator new")


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    full = "--full" in sys.argv
    path = args[0]
    top = int(args[1]) if len(args) > 1 else 15
    stacks = []
    header = ""
    for line in open(path):
        if line.startswith("#"):
            header = line.strip()
            continue
        parts = line.split()
        if not parts or parts[0] != "site":
            continue
        stacks.append((float(parts[1]), parts[2:]))
    stacks = stacks[:top]
    offsets = collections.defaultdict(set)
    for _, frames in stacks:
        for frame in frames:
            if "+0x" in frame:
                file, offset = frame.rsplit("+", 1)
                offsets[file].add(offset)
    names = {}
    for file, wanted in offsets.items():
        ordered = sorted(wanted)
        try:
            out = subprocess.run(["addr2line", "-f", "-e", file] + [hex(int(o, 16) - 1) for o in ordered],
                                 capture_output=True, text=True, check=True).stdout.split("\n")
        except (OSError, subprocess.CalledProcessError):
            continue
        for index, offset in enumerate(ordered):
            names[(file, offset)] = (out[2 * index], out[2 * index + 1].rsplit("/", 1)[-1])
    mangled = sorted({name for name, _ in names.values()})
    try:
        demangled = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(mangled),
                                   capture_output=True, text=True, check=True).stdout.split("\n")
        readable = dict(zip(mangled, demangled))
    except (OSError, subprocess.CalledProcessError):
        readable = {}
    print(header)
    for per_request, frames in stacks:
        print(f"{per_request:6.2f} per request")
        shown = 0
        for frame in frames:
            if "+0x" not in frame:
                continue
            file, offset = frame.rsplit("+", 1)
            name, where = names.get((file, offset), ("??", "??"))
            name = readable.get(name, name)
            if not full and (shown == 0 and any(s in name for s in SKIP) or name == "??"):
                continue
            print(f"        {name[:150]}  ({file.rsplit('/', 1)[-1]} {where})")
            shown += 1
            if not full and shown >= 6:
                break


if __name__ == "__main__":
    main()
