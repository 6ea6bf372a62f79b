// The C side of the ProxyPAC plug-in: one Duktape heap per engine, built from Debian's duktape sources with an
// execution-time check and a memory cap (decision 0016). Every Duktape call happens in this file's C code inside a
// protected call, so a Duktape error never unwinds (longjmp) through a Swift frame; the Swift side only calls
// these functions and answers the host callbacks, which never call Duktape.
#ifndef ASI_PAC_H
#define ASI_PAC_H

#include <stddef.h>
#include <stdint.h>

/// What the script may ask of its host. Callbacks run on the engine's thread, never call Duktape, and write a
/// NUL-terminated answer into `out` (at most `capacity` bytes including the NUL).
typedef struct asi_pac_host {
    void *context;
    /// Resolves `host`. `all` = 0: the first IPv4 address, or "" when the name has none; `all` = 1: every address,
    /// separated by ';'. Returns 0 when the name resolved, -1 when it did not.
    int (*resolve)(void *context, const char *host, int all, char *out, size_t capacity);
    /// The host's own address (`all` as above). Returns 0, or -1 for none.
    int (*my_address)(void *context, int all, char *out, size_t capacity);
    /// alert(message) from the script.
    void (*alert)(void *context, const char *message);
} asi_pac_host;

typedef struct asi_pac_engine asi_pac_engine;

enum {
    ASI_PAC_OK = 0,
    ASI_PAC_SCRIPT_ERROR = 1,
    ASI_PAC_TIMED_OUT = 2,
    ASI_PAC_OUT_OF_MEMORY = 3,
    ASI_PAC_NOT_A_STRING = 4,
};

/// Creates an engine whose heap may hold at most `memory_limit` bytes; NULL when the heap cannot be made.
asi_pac_engine *asi_pac_engine_create(size_t memory_limit, asi_pac_host host);
/// Destroys the engine and its heap.
void asi_pac_engine_destroy(asi_pac_engine *engine);
/// Runs global code (the PAC utilities, then the PAC file) within `timeout_ms`. Returns ASI_PAC_OK or an error
/// code, with a message in `error`.
int asi_pac_engine_eval(asi_pac_engine *engine, const char *source, size_t length, uint32_t timeout_ms,
                        char *error, size_t error_capacity);
/// Calls findProxyForURL(url, host) within `timeout_ms`. On ASI_PAC_OK `*answer` is a malloc'd string the
/// caller frees with free(); otherwise an error code, with a message in `error`.
int asi_pac_engine_find(asi_pac_engine *engine, const char *url, const char *host, uint32_t timeout_ms,
                        char **answer, char *error, size_t error_capacity);
/// The bytes the heap holds now.
size_t asi_pac_engine_memory_used(const asi_pac_engine *engine);

/// Resolves `host` with getaddrinfo_a, waiting at most `timeout_ms` (then the lookup is cancelled, or left to
/// finish in the background when it cannot be). Address literals are answered without a lookup.
/// Writes the addresses (numeric, ';'-separated, in the resolver's order, duplicates removed) into `out`.
/// Returns 0 when the name resolved, -1 when it did not or the time ran out.
int asi_pac_lookup(const char *host, uint32_t timeout_ms, char *out, size_t capacity);

#endif
