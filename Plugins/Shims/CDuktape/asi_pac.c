// The ProxyPAC engine: a sandboxed Duktape heap (no I/O but the host callbacks, a time limit per call, a memory
// cap) and the native PAC functions. See include/asi_pac.h.
#include "duktape_build.h"
#include "asi_pac.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

struct asi_pac_engine {
    duk_context *ctx;
    asi_pac_host host;
    size_t limit;
    size_t used;
    uint64_t deadline_ns;  // 0: no call running
    int timed_out;
    int out_of_memory;
};

// ---------------------------------------------------------------- allocator with a cap

typedef union { size_t size; max_align_t align; } asi_header;

static int asi_out_of_time(asi_pac_engine *engine);

// Whether an allocation may happen: within the cap, and (during a call) before the deadline. The executor checks
// the deadline only every few hundred thousand instructions, so a loop of long native calls (string joins,
// regular expressions) is stopped here, at its next allocation.
static int asi_may_allocate(asi_pac_engine *engine, size_t growth) {
    if (asi_out_of_time(engine)) return 0;
    if (growth > engine->limit || engine->used + growth > engine->limit) {
        engine->out_of_memory = 1;
        return 0;
    }
    return 1;
}

static void *asi_alloc(void *udata, duk_size_t size) {
    asi_pac_engine *engine = udata;
    if (size == 0 || !asi_may_allocate(engine, size)) return NULL;
    asi_header *block = malloc(sizeof(asi_header) + size);
    if (block == NULL) return NULL;
    block->size = size;
    engine->used += size;
    return block + 1;
}

static void asi_free(void *udata, void *ptr) {
    asi_pac_engine *engine = udata;
    if (ptr == NULL) return;
    asi_header *block = (asi_header *)ptr - 1;
    engine->used -= block->size;
    free(block);
}

static void *asi_realloc(void *udata, void *ptr, duk_size_t size) {
    asi_pac_engine *engine = udata;
    if (ptr == NULL) return asi_alloc(udata, size);
    if (size == 0) {
        asi_free(udata, ptr);
        return NULL;
    }
    asi_header *block = (asi_header *)ptr - 1;
    size_t old = block->size;
    if (size > old && !asi_may_allocate(engine, size - old)) return NULL;
    asi_header *grown = realloc(block, sizeof(asi_header) + size);
    if (grown == NULL) return NULL;
    grown->size = size;
    engine->used = engine->used - old + size;
    return grown + 1;
}

// Reached only for an error outside every protected call, which this file never makes: a bug, so stop.
static void asi_fatal(void *udata, const char *message) {
    (void)udata;
    (void)message;
    abort();
}

// ---------------------------------------------------------------- time limit

static uint64_t asi_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static int asi_out_of_time(asi_pac_engine *engine) {
    if (engine == NULL || engine->deadline_ns == 0) return 0;
    if (engine->timed_out || asi_now_ns() >= engine->deadline_ns) {
        engine->timed_out = 1;
        return 1;
    }
    return 0;
}

int asi_pac_exec_timeout_check(void *udata) { return asi_out_of_time(udata); }

// ---------------------------------------------------------------- native functions

enum { ASI_ANSWER_CAPACITY = 4096 };

static duk_ret_t asi_push_answer(duk_context *ctx, int found, const char *answer) {
    if (found == 0) duk_push_string(ctx, answer);
    else duk_push_null(ctx);
    return 1;
}

static asi_pac_engine *asi_engine(duk_context *ctx) {
    duk_memory_functions functions;
    duk_get_memory_functions(ctx, &functions);
    return functions.udata;
}

static duk_ret_t asi_dns_resolve_common(duk_context *ctx, int all) {
    asi_pac_engine *engine = asi_engine(ctx);
    if (duk_get_top(ctx) < 1 || duk_is_null_or_undefined(ctx, 0)) return asi_push_answer(ctx, -1, NULL);
    const char *name = duk_safe_to_string(ctx, 0);
    char answer[ASI_ANSWER_CAPACITY] = {0};
    int found = -1;
    if (!asi_pac_exec_timeout_check(engine) && engine->host.resolve != NULL) {
        found = engine->host.resolve(engine->host.context, name, all, answer, sizeof answer);
    }
    // Microsoft's *Ex functions answer "" for a name that does not resolve.
    if (found != 0 && all) return asi_push_answer(ctx, 0, "");
    return asi_push_answer(ctx, found, answer);
}

static duk_ret_t asi_dns_resolve(duk_context *ctx) { return asi_dns_resolve_common(ctx, 0); }
static duk_ret_t asi_dns_resolve_ex(duk_context *ctx) { return asi_dns_resolve_common(ctx, 1); }

static duk_ret_t asi_my_address_common(duk_context *ctx, int all) {
    asi_pac_engine *engine = asi_engine(ctx);
    char answer[ASI_ANSWER_CAPACITY] = {0};
    int found = engine->host.my_address != NULL
        ? engine->host.my_address(engine->host.context, all, answer, sizeof answer) : -1;
    return asi_push_answer(ctx, 0, found == 0 ? answer : "127.0.0.1");
}

static duk_ret_t asi_my_ip_address(duk_context *ctx) { return asi_my_address_common(ctx, 0); }
static duk_ret_t asi_my_ip_address_ex(duk_context *ctx) { return asi_my_address_common(ctx, 1); }

static duk_ret_t asi_alert(duk_context *ctx) {
    asi_pac_engine *engine = asi_engine(ctx);
    const char *message = duk_get_top(ctx) < 1 ? "undefined" : duk_safe_to_string(ctx, 0);
    if (engine->host.alert != NULL) engine->host.alert(engine->host.context, message);
    return 0;
}

// ---------------------------------------------------------------- engine

static void asi_copy_error(const char *message, char *error, size_t capacity) {
    if (error == NULL || capacity == 0) return;
    strncpy(error, message != NULL ? message : "unknown error", capacity - 1);
    error[capacity - 1] = 0;
}

static duk_ret_t asi_install(duk_context *ctx, void *udata) {
    (void)udata;
    static const duk_function_list_entry functions[] = {
        {"dnsResolve", asi_dns_resolve, 1},
        {"dnsResolveEx", asi_dns_resolve_ex, 1},
        {"myIpAddress", asi_my_ip_address, 0},
        {"myIpAddressEx", asi_my_ip_address_ex, 0},
        {"alert", asi_alert, 1},
        {NULL, NULL, 0},
    };
    duk_push_global_object(ctx);
    duk_put_function_list(ctx, -1, functions);
    // No engine internals for the script (Duktape's own object exposes heap and call-stack inspection).
    duk_del_prop_string(ctx, -1, "Duktape");
    duk_pop(ctx);
    return 0;
}

asi_pac_engine *asi_pac_engine_create(size_t memory_limit, asi_pac_host host) {
    asi_pac_engine *engine = calloc(1, sizeof *engine);
    if (engine == NULL) return NULL;
    engine->host = host;
    engine->limit = memory_limit;
    engine->ctx = duk_create_heap(asi_alloc, asi_realloc, asi_free, engine, asi_fatal);
    if (engine->ctx == NULL || duk_safe_call(engine->ctx, asi_install, NULL, 0, 1) != DUK_EXEC_SUCCESS) {
        if (engine->ctx != NULL) duk_destroy_heap(engine->ctx);
        free(engine);
        return NULL;
    }
    duk_pop(engine->ctx);
    return engine;
}

void asi_pac_engine_destroy(asi_pac_engine *engine) {
    if (engine == NULL) return;
    engine->deadline_ns = 0;
    duk_destroy_heap(engine->ctx);
    free(engine);
}

size_t asi_pac_engine_memory_used(const asi_pac_engine *engine) { return engine->used; }

static void asi_begin(asi_pac_engine *engine, uint32_t timeout_ms) {
    engine->timed_out = 0;
    engine->out_of_memory = 0;
    engine->deadline_ns = asi_now_ns() + (uint64_t)(timeout_ms == 0 ? 1 : timeout_ms) * 1000000u;
}

// Ends a call whose result (or error) is on top of the stack; copies an error's text and pops it.
static int asi_end(asi_pac_engine *engine, duk_int_t status, char *error, size_t capacity) {
    engine->deadline_ns = 0;
    if (status == DUK_EXEC_SUCCESS) return ASI_PAC_OK;
    int code = engine->timed_out ? ASI_PAC_TIMED_OUT
        : engine->out_of_memory ? ASI_PAC_OUT_OF_MEMORY : ASI_PAC_SCRIPT_ERROR;
    asi_copy_error(engine->timed_out ? "execution timeout" : duk_safe_to_string(engine->ctx, -1), error, capacity);
    duk_pop(engine->ctx);
    return code;
}

typedef struct { const char *source; size_t length; } asi_source;

static duk_ret_t asi_eval_source(duk_context *ctx, void *udata) {
    asi_source *source = udata;
    duk_push_string(ctx, "pac");
    duk_compile_lstring_filename(ctx, 0, source->source, source->length);
    duk_call(ctx, 0);
    return 1;
}

int asi_pac_engine_eval(asi_pac_engine *engine, const char *source, size_t length, uint32_t timeout_ms,
                        char *error, size_t error_capacity) {
    asi_source input = {source, length};
    asi_begin(engine, timeout_ms);
    duk_int_t status = duk_safe_call(engine->ctx, asi_eval_source, &input, 0, 1);
    int code = asi_end(engine, status, error, error_capacity);
    if (code == ASI_PAC_OK) duk_pop(engine->ctx);
    return code;
}

typedef struct { const char *url; const char *host; char *answer; int not_string; } asi_find_call;

static duk_ret_t asi_find(duk_context *ctx, void *udata) {
    asi_find_call *call = udata;
    duk_push_global_object(ctx);
    duk_get_prop_string(ctx, -1, "findProxyForURL");
    duk_push_string(ctx, call->url);
    duk_push_string(ctx, call->host);
    duk_call(ctx, 2);
    if (!duk_is_string(ctx, -1)) {
        call->not_string = 1;
        duk_push_string(ctx, duk_safe_to_string(ctx, -1));
    }
    const char *text = duk_get_string(ctx, -1);
    call->answer = strdup(text != NULL ? text : "");
    return 1;
}

int asi_pac_engine_find(asi_pac_engine *engine, const char *url, const char *host, uint32_t timeout_ms,
                        char **answer, char *error, size_t error_capacity) {
    asi_find_call call = {url, host, NULL, 0};
    *answer = NULL;
    asi_begin(engine, timeout_ms);
    duk_int_t status = duk_safe_call(engine->ctx, asi_find, &call, 0, 1);
    int code = asi_end(engine, status, error, error_capacity);
    if (code != ASI_PAC_OK) {
        free(call.answer);
        return code;
    }
    duk_pop(engine->ctx);
    if (call.answer == NULL) {
        asi_copy_error("out of memory", error, error_capacity);
        return ASI_PAC_OUT_OF_MEMORY;
    }
    *answer = call.answer;
    return call.not_string ? ASI_PAC_NOT_A_STRING : ASI_PAC_OK;
}

// ---------------------------------------------------------------- DNS with a time limit

// Writes the addresses of a lookup's answer, without duplicates; returns 0 when there was at least one.
static int asi_format_addresses(const struct addrinfo *answer, char *out, size_t capacity);

int asi_pac_lookup(const char *host, uint32_t timeout_ms, char *out, size_t capacity) {
    if (capacity == 0) return -1;
    out[0] = 0;
    struct addrinfo hints;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    // An address literal needs no lookup (and no helper thread).
    struct addrinfo *numeric = NULL;
    hints.ai_flags = AI_NUMERICHOST;
    if (getaddrinfo(host, NULL, &hints, &numeric) == 0) {
        int found = asi_format_addresses(numeric, out, capacity);
        freeaddrinfo(numeric);
        return found;
    }
    hints.ai_flags = 0;
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define ASI_PAC_BLOCKING_LOOKUP 1
#endif
#endif
#ifdef ASI_PAC_BLOCKING_LOOKUP
    // ThreadSanitizer builds only (Docs/Sanitizers.md): glibc starts getaddrinfo_a's helper thread from inside
    // libc, past TSan's pthread_create interceptor, and the first malloc on that unknown thread crashes TSan's
    // allocator. So these builds look up on the calling thread, without the time limit.
    (void)timeout_ms;
    struct addrinfo *answer = NULL;
    if (getaddrinfo(host, NULL, &hints, &answer) != 0) return -1;
    int resolved = asi_format_addresses(answer, out, capacity);
    freeaddrinfo(answer);
    return resolved;
#else
    // The request lives on the heap: a lookup that cannot be cancelled in time is left to finish on glibc's
    // helper thread, writing into this block, which is then never freed (a small leak, only for a resolver that
    // hangs, rather than a wait past the time limit).
    struct asi_lookup { struct gaicb request; struct addrinfo hints; char name[]; };
    size_t name_length = strlen(host);
    struct asi_lookup *lookup = calloc(1, sizeof *lookup + name_length + 1);
    if (lookup == NULL) return -1;
    memcpy(lookup->name, host, name_length + 1);
    lookup->hints = hints;
    lookup->request.ar_name = lookup->name;
    lookup->request.ar_request = &lookup->hints;
    struct gaicb *list[1] = {&lookup->request};
    if (getaddrinfo_a(GAI_NOWAIT, list, 1, NULL) != 0) {
        free(lookup);
        return -1;
    }
    const struct gaicb *waiting[1] = {&lookup->request};
    uint64_t deadline = asi_now_ns() + (uint64_t)timeout_ms * 1000000u;
    while (gai_error(&lookup->request) == EAI_INPROGRESS) {
        uint64_t now = asi_now_ns();
        if (now >= deadline) break;
        uint64_t left = deadline - now;
        struct timespec wait = {(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
        gai_suspend(waiting, 1, &wait);
    }
    if (gai_error(&lookup->request) == EAI_INPROGRESS && gai_cancel(&lookup->request) != EAI_CANCELED
        && gai_error(&lookup->request) == EAI_INPROGRESS) {
        return -1;  // still running: abandoned (see above)
    }
    int found = -1;
    if (gai_error(&lookup->request) == 0 && lookup->request.ar_result != NULL) {
        found = asi_format_addresses(lookup->request.ar_result, out, capacity);
    }
    if (lookup->request.ar_result != NULL) freeaddrinfo(lookup->request.ar_result);
    free(lookup);
    return found;
#endif
}

static int asi_format_addresses(const struct addrinfo *answer, char *out, size_t capacity) {
    size_t used = 0;
    out[0] = 0;
    for (const struct addrinfo *entry = answer; entry != NULL; entry = entry->ai_next) {
        char text[INET6_ADDRSTRLEN] = {0};
        const void *address = entry->ai_family == AF_INET
            ? (const void *)&((struct sockaddr_in *)entry->ai_addr)->sin_addr
            : (const void *)&((struct sockaddr_in6 *)entry->ai_addr)->sin6_addr;
        if (entry->ai_family != AF_INET && entry->ai_family != AF_INET6) continue;
        if (inet_ntop(entry->ai_family, address, text, sizeof text) == NULL) continue;
        // Skip duplicates (getaddrinfo answers one entry per socket type otherwise).
        size_t length = strlen(text);
        int duplicate = 0;
        for (const char *at = out; (at = strstr(at, text)) != NULL; at += length) {
            if ((at == out || at[-1] == ';') && (at[length] == ';' || at[length] == 0)) {
                duplicate = 1;
                break;
            }
        }
        if (duplicate) continue;
        if (used + length + 2 > capacity) break;
        if (used > 0) out[used++] = ';';
        memcpy(out + used, text, length + 1);
        used += length;
    }
    return used > 0 ? 0 : -1;
}
