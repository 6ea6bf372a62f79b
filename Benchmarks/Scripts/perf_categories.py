#!/usr/bin/env python3
"""Sums a perf profile's self time into categories (kernel, ARC, allocation, concurrency, HTTPFields, parser, ...).

Usage: perf_categories.py PERF_DATA [REQUESTS]
With REQUESTS, each category is also shown in microseconds of CPU per request (cpu-clock event count / REQUESTS).
The first rule that matches a symbol wins, so the order of RULES matters.
"""
import re
import subprocess
import sys

RULES = [
    ("kernel (system calls, TCP loopback, scheduler)", lambda d, s: d == "[kernel.kallsyms]"),
    ("ARC retain/release", lambda d, s: re.search(
        r"swift_(retain|release|bridgeObject|unknownObject|isUniquelyReferenced)|doDecrementSlow|RefCounts", s)),
    ("allocation (malloc/free, Swift objects, task allocator)", lambda d, s: re.search(
        r"malloc|free|calloc|realloc|unlink_chunk|swift_allocObject|swift_deallocObject|swift_slowAlloc|"
        r"swift_slowDealloc|StackAllocator|swift_task_alloc|swift_task_dealloc|swift_allocBox|"
        r"swift_deallocClassInstance|swift_initStackObject", s)),
    ("concurrency runtime, dispatch, futex, locks", lambda d, s: d in (
        "libswift_Concurrency.so", "libdispatch.so", "libswiftSynchronization.so")
        or re.search(r"futex|sem_post|sem_wait|pthread|Continuation|withTaskCancellationHandler|_MutexHandle", s)),
    ("HTTPFields / HTTPTypes", lambda d, s: re.search(r"HTTPField|HTTPTypes|HTTPRequest\.|HTTPResponse\.", s)),
    ("HTTP/1 parser and framing rules", lambda d, s: re.search(
        r"HTTP1ResponseParser|HTTP1FramingRules|HTTP1Syntax|HTTP1KnownFieldNames|ResponseFraming|BodyFraming|"
        r"HTTP1ResponseHead", s)),
    ("request serializer", lambda d, s: re.search(r"HTTP1RequestSerializer|RequestTarget|RequestWriter", s)),
    ("URL (FoundationEssentials)", lambda d, s: d == "libFoundationEssentials.so" or re.search(
        r"\bURL\b|_SwiftURL|RFC3986", s)),
    ("value-witness copies and destroys (Request, ExchangePlan, ...)", lambda d, s: re.search(
        r"initializeWithCopy|destroy for|assignWithCopy|initializeWithTake|outlined (init with )?copy|"
        r"outlined destroy|outlined consume|assignWithTake|destroy_boxed_opaque_existential", s)),
    ("queue (RequestQueue, QueueState, queue progress)", lambda d, s: re.search(
        r"RequestQueue|QueueState|QueueProgress|QueueResult|RequestHandle", s)),
    ("pipeline (redirects, cookies, auth, cache, logging)", lambda d, s: re.search(
        r"RequestPipeline|ResponseReader|CookieJar|Cookie|AuthenticationStage|Redirect|CacheStage|Client\.|"
        r"ClientResponse|ContentCoding|PipelineEvents|UserAgent|Credential|StreamingResponse|ExchangeInfo|"
        r"TransportStaged|staged|ProgressRelay|Origin|Logger|LogHandler|Logging", s)),
    ("transport (event loop, pool, connection, exchange)", lambda d, s: re.search(
        r"EventLoop|IOHandle|Connection|ExchangePlan|HTTP1Exchange|TransportCore|Socket|PoolKey|TimerHeap|NanoTime|"
        r"ProgressCounter|POSIXTransport|TLS|ChunkList", s)),
    ("Swift stdlib (String, Hasher, Dictionary, casts, metadata)", lambda d, s: d.startswith("libswiftCore")
        or re.search(r"String|Hasher|_allASCII|tryCast|swift_dynamicCast|Unicode|Character|swift_conformsTo|"
                     r"MangledName|Array|Dictionary|Set|Sequence|Collection", s)),
    ("libc system-call wrappers, vDSO", lambda d, s: d in ("libc.so.6", "[vdso]")),
    ("dynamic linker (TLS lookups, start-up)", lambda d, s: d.startswith("ld-linux")),
    ("benchmark harness, libcurl itself", lambda d, s: re.search(r"Bench|asikit_bench", s) or "curl" in d),
]


def main():
    data = sys.argv[1]
    requests = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    report = subprocess.run(
        f"perf report -i {data} --no-children --sort dso,sym --stdio -g none 2>/dev/null | swift demangle --simplified",
        shell=True, capture_output=True, text=True).stdout
    # cpu-clock's event count is the CPU time sampled, in nanoseconds.
    summary = subprocess.run(f"perf report -i {data} --stdio -g none --sort dso 2>/dev/null", shell=True,
                             capture_output=True, text=True).stdout
    count = re.search(r"# Event count \(approx\.\): (\d+)", summary)
    cpu_ns = int(count.group(1)) if count else 0
    totals = {}
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+\[[.k]\]\s+(.*)", line)
        if not m:
            continue
        pct, dso, sym = float(m.group(1)), m.group(2), m.group(3)
        for name, rule in RULES:
            if rule(dso, sym):
                totals[name] = totals.get(name, 0) + pct
                break
        else:
            totals["other"] = totals.get("other", 0) + pct
    per_request = requests and cpu_ns
    for name, pct in sorted(totals.items(), key=lambda item: -item[1]):
        extra = f"  {pct / 100 * cpu_ns / 1000 / requests:6.2f} us/request" if per_request else ""
        print(f"  {pct:6.2f}%{extra}  {name}")
    if per_request:
        print(f"  total: {cpu_ns / 1000 / requests:.1f} us of CPU per request, as sampled")


if __name__ == "__main__":
    main()
