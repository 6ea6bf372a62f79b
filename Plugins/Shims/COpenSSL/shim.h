#ifndef C_OPENSSL_SHIM_H
#define C_OPENSSL_SHIM_H

#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <openssl/pkcs12.h>
#include <openssl/pem.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/des.h>

#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>

// Macros Swift cannot call directly.
static inline long c_openssl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}
static inline long c_openssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}
static inline long c_openssl_ctx_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
static inline long c_openssl_ctx_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}
static inline long c_openssl_ctx_add1_chain_cert(SSL_CTX *ctx, X509 *x509) {
    return SSL_CTX_add1_chain_cert(ctx, x509);
}
static inline int c_openssl_sk_x509_num(STACK_OF(X509) *stack) {
    return sk_X509_num(stack);
}
static inline X509 *c_openssl_sk_x509_value(STACK_OF(X509) *stack, int index) {
    return sk_X509_value(stack, index);
}
static inline void c_openssl_sk_x509_pop_free(STACK_OF(X509) *stack) {
    sk_X509_pop_free(stack, X509_free);
}
static inline uint64_t c_openssl_op_ignore_unexpected_eof(void) {
    return SSL_OP_IGNORE_UNEXPECTED_EOF;
}
static inline uint64_t c_openssl_op_no_compression(void) {
    return SSL_OP_NO_COMPRESSION;
}

// RFC 9525 server identity for X509_check_host: a wildcard only as the whole left-most label, and never the
// subject's CN (CN-IDs are not supported).
static inline unsigned int c_openssl_rfc9525_host_flags(void) {
    return X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT;
}

// The peer's DER SubjectPublicKeyInfo and its SHA-256 (for public-key pinning). Writes at most `capacity` bytes
// of the key into `der` and 32 bytes into `sha256`; returns the key's length, or -1 without a peer certificate
// (or -2 when `capacity` is too small, with the length needed in `*needed`).
static inline int c_openssl_peer_spki(SSL *ssl, unsigned char *der, int capacity, int *needed,
                                      unsigned char sha256[32]) {
    X509 *certificate = SSL_get0_peer_certificate(ssl);
    if (certificate == NULL) return -1;
    EVP_PKEY *key = X509_get0_pubkey(certificate);
    if (key == NULL) return -1;
    int length = i2d_PUBKEY(key, NULL);
    if (length <= 0) return -1;
    *needed = length;
    if (length > capacity) return -2;
    unsigned char *cursor = der;
    if (i2d_PUBKEY(key, &cursor) != length) return -1;
    unsigned int digestLength = 0;
    if (EVP_Digest(der, (size_t)length, sha256, &digestLength, EVP_sha256(), NULL) != 1 || digestLength != 32)
        return -1;
    return length;
}

// AES-GCM controls (macros of macros) for the FileKeyring plugin.
static inline int c_openssl_ctrl_gcm_set_ivlen(void) { return EVP_CTRL_GCM_SET_IVLEN; }
static inline int c_openssl_ctrl_gcm_get_tag(void) { return EVP_CTRL_GCM_GET_TAG; }
static inline int c_openssl_ctrl_gcm_set_tag(void) { return EVP_CTRL_GCM_SET_TAG; }

// Single DES in ECB mode for NTLMv1, which NTLMAuthenticator sends only when an application allows it. OpenSSL 3
// keeps DES out of its default EVP provider, but libcrypto still has the low-level functions; they are deprecated,
// hence the pragma. The key's parity bits are ignored, as NTLM's 7-byte keys need.
static inline void c_openssl_des_ecb_encrypt(const uint8_t *key, const uint8_t *input, uint8_t *output) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    DES_key_schedule schedule;
    DES_set_key_unchecked((const_DES_cblock *)key, &schedule);
    DES_ecb_encrypt((const_DES_cblock *)input, (DES_cblock *)output, &schedule, DES_ENCRYPT);
    OPENSSL_cleanse(&schedule, sizeof schedule);
#pragma GCC diagnostic pop
}

// A socket BIO that sends with MSG_NOSIGNAL, so a TLS write to a closed peer never raises SIGPIPE, and that
// remembers the errno of its last failed call (OpenSSL may overwrite errno before the caller looks at it).
typedef struct {
    int fd;
    int last_errno;
} c_openssl_socket_bio_state;

static inline int c_openssl_socket_bio_write(BIO *bio, const char *data, size_t length, size_t *written) {
    c_openssl_socket_bio_state *state = (c_openssl_socket_bio_state *)BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    for (;;) {
        ssize_t n = send(state->fd, data, length, MSG_NOSIGNAL);
        if (n >= 0) {
            *written = (size_t)n;
            return 1;
        }
        if (errno == EINTR) continue;
        state->last_errno = errno;
        if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_write(bio);
        return 0;
    }
}

static inline int c_openssl_socket_bio_read(BIO *bio, char *data, size_t length, size_t *read) {
    c_openssl_socket_bio_state *state = (c_openssl_socket_bio_state *)BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    for (;;) {
        ssize_t n = recv(state->fd, data, length, 0);
        if (n > 0) {
            *read = (size_t)n;
            return 1;
        }
        if (n == 0) {
            state->last_errno = 0;
            *read = 0;
            return 0;
        }
        if (errno == EINTR) continue;
        state->last_errno = errno;
        if (errno == EAGAIN || errno == EWOULDBLOCK) BIO_set_retry_read(bio);
        return 0;
    }
}

static inline long c_openssl_socket_bio_ctrl(BIO *bio, int command, long number, void *pointer) {
    (void)number;
    (void)pointer;
    switch (command) {
    case BIO_CTRL_FLUSH:
    case BIO_CTRL_DUP:
        return 1;
    case BIO_C_GET_FD: {
        c_openssl_socket_bio_state *state = (c_openssl_socket_bio_state *)BIO_get_data(bio);
        return state ? state->fd : -1;
    }
    default:
        return 0;
    }
}

static inline int c_openssl_socket_bio_create(BIO *bio) {
    c_openssl_socket_bio_state *state = OPENSSL_zalloc(sizeof(c_openssl_socket_bio_state));
    if (state == NULL) return 0;
    state->fd = -1;
    BIO_set_data(bio, state);
    BIO_set_init(bio, 1);
    return 1;
}

static inline int c_openssl_socket_bio_destroy(BIO *bio) {
    if (bio == NULL) return 0;
    OPENSSL_free(BIO_get_data(bio));
    BIO_set_data(bio, NULL);
    BIO_set_init(bio, 0);
    return 1;
}

/// Makes the method table of the no-SIGPIPE socket BIO. Call once and keep the result for the process.
static inline BIO_METHOD *c_openssl_make_socket_bio_method(void) {
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR,
                                      "asikit-socket");
    if (method == NULL) return NULL;
    BIO_meth_set_write_ex(method, c_openssl_socket_bio_write);
    BIO_meth_set_read_ex(method, c_openssl_socket_bio_read);
    BIO_meth_set_ctrl(method, c_openssl_socket_bio_ctrl);
    BIO_meth_set_create(method, c_openssl_socket_bio_create);
    BIO_meth_set_destroy(method, c_openssl_socket_bio_destroy);
    return method;
}

/// A new no-SIGPIPE socket BIO over `fd` (which it does not close).
static inline BIO *c_openssl_new_socket_bio(BIO_METHOD *method, int fd) {
    BIO *bio = BIO_new(method);
    if (bio == NULL) return NULL;
    ((c_openssl_socket_bio_state *)BIO_get_data(bio))->fd = fd;
    return bio;
}

/// The errno of the BIO's last failed socket call; 0 after an orderly end of stream.
static inline int c_openssl_socket_bio_last_errno(BIO *bio) {
    c_openssl_socket_bio_state *state = (c_openssl_socket_bio_state *)BIO_get_data(bio);
    return state ? state->last_errno : 0;
}

#endif
