#include "CLibcrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

// OpenSSL's types stay opaque here, and its functions are looked up at run time: building needs no
// OpenSSL headers, and a host without libssl3 still runs (the caller falls back to BoringSSL).
typedef struct evp_pkey EVP_PKEY;
typedef struct evp_pkey_ctx EVP_PKEY_CTX;
typedef struct evp_md EVP_MD;
typedef struct bio BIO;

static struct {
    BIO *(*BIO_new_mem_buf)(const void *, int);
    int (*BIO_free)(BIO *);
    EVP_PKEY *(*PEM_read_bio_PrivateKey)(BIO *, EVP_PKEY **, void *, void *);
    int (*EVP_PKEY_get_base_id)(const EVP_PKEY *);
    void (*EVP_PKEY_free)(EVP_PKEY *);
    EVP_PKEY *(*EVP_PKEY_dup)(EVP_PKEY *);
    EVP_PKEY_CTX *(*EVP_PKEY_CTX_new)(EVP_PKEY *, void *);
    void (*EVP_PKEY_CTX_free)(EVP_PKEY_CTX *);
    int (*EVP_PKEY_sign_init)(EVP_PKEY_CTX *);
    int (*EVP_PKEY_CTX_set_rsa_padding)(EVP_PKEY_CTX *, int);
    int (*EVP_PKEY_CTX_set_signature_md)(EVP_PKEY_CTX *, const EVP_MD *);
    const EVP_MD *(*EVP_sha256)(void);
    int (*EVP_PKEY_sign)(EVP_PKEY_CTX *, unsigned char *, size_t *, const unsigned char *, size_t);
} crypto;
static int crypto_loaded;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;

#define EVP_PKEY_RSA 6
#define RSA_PKCS1_PADDING 1

static int resolve(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    return *slot != NULL;
}

static void load_crypto(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
    int found = resolve(library, (void **)&crypto.BIO_new_mem_buf, "BIO_new_mem_buf")
        & resolve(library, (void **)&crypto.BIO_free, "BIO_free")
        & resolve(library, (void **)&crypto.PEM_read_bio_PrivateKey, "PEM_read_bio_PrivateKey")
        & resolve(library, (void **)&crypto.EVP_PKEY_get_base_id, "EVP_PKEY_get_base_id")
        & resolve(library, (void **)&crypto.EVP_PKEY_free, "EVP_PKEY_free")
        & resolve(library, (void **)&crypto.EVP_PKEY_dup, "EVP_PKEY_dup")
        & resolve(library, (void **)&crypto.EVP_PKEY_CTX_new, "EVP_PKEY_CTX_new")
        & resolve(library, (void **)&crypto.EVP_PKEY_CTX_free, "EVP_PKEY_CTX_free")
        & resolve(library, (void **)&crypto.EVP_PKEY_sign_init, "EVP_PKEY_sign_init")
        & resolve(library, (void **)&crypto.EVP_PKEY_CTX_set_rsa_padding, "EVP_PKEY_CTX_set_rsa_padding")
        & resolve(library, (void **)&crypto.EVP_PKEY_CTX_set_signature_md, "EVP_PKEY_CTX_set_signature_md")
        & resolve(library, (void **)&crypto.EVP_sha256, "EVP_sha256")
        & resolve(library, (void **)&crypto.EVP_PKEY_sign, "EVP_PKEY_sign");
    // An OpenSSL older than 3 lacks EVP_PKEY_get_base_id; it is then not used at all.
    if (found) crypto_loaded = 1; else dlclose(library);
}

struct authdeck_libcrypto_rsa_key {
    EVP_PKEY *pkey;
    uint64_t serial;
};

static _Atomic uint64_t next_serial = 1;

authdeck_libcrypto_rsa_key *authdeck_libcrypto_rsa_key_new(const char *pem, size_t length) {
    pthread_once(&crypto_once, load_crypto);
    if (!crypto_loaded || length > 1 << 20) return NULL;
    BIO *bio = crypto.BIO_new_mem_buf(pem, (int)length);
    if (bio == NULL) return NULL;
    EVP_PKEY *pkey = crypto.PEM_read_bio_PrivateKey(bio, NULL, NULL, NULL);
    crypto.BIO_free(bio);
    if (pkey == NULL) return NULL;
    authdeck_libcrypto_rsa_key *key = malloc(sizeof *key);
    if (key == NULL || crypto.EVP_PKEY_get_base_id(pkey) != EVP_PKEY_RSA) {
        crypto.EVP_PKEY_free(pkey);
        free(key);
        return NULL;
    }
    key->pkey = pkey;
    key->serial = atomic_fetch_add(&next_serial, 1);
    return key;
}

void authdeck_libcrypto_rsa_key_free(authdeck_libcrypto_rsa_key *key) {
    if (key == NULL) return;
    // Contexts other threads still hold keep their own reference to the EVP_PKEY.
    crypto.EVP_PKEY_free(key->pkey);
    free(key);
}

// A signing context is set up once per thread and key (as `openssl speed` does): setting one up
// costs about as much as the signature itself. OpenSSL's contexts are not safe to share.
struct thread_context {
    uint64_t serial;
    EVP_PKEY_CTX *context;
};

static pthread_key_t context_key;
static pthread_once_t context_key_once = PTHREAD_ONCE_INIT;

static void free_thread_context(void *value) {
    struct thread_context *cached = value;
    crypto.EVP_PKEY_CTX_free(cached->context);
    free(cached);
}

static void make_context_key(void) {
    pthread_key_create(&context_key, free_thread_context);
}

static EVP_PKEY_CTX *new_signing_context(EVP_PKEY *shared) {
    // A copy of the key per thread: OpenSSL blinds each RSA signature with a factor kept in the key,
    // and a key used from several threads makes all but its first thread take the key's lock twice
    // per signature and share a second, locked factor.
    EVP_PKEY *pkey = crypto.EVP_PKEY_dup(shared);
    if (pkey == NULL) return NULL;
    EVP_PKEY_CTX *context = crypto.EVP_PKEY_CTX_new(pkey, NULL);
    // The context holds its own reference to the copy.
    crypto.EVP_PKEY_free(pkey);
    if (context == NULL) return NULL;
    if (crypto.EVP_PKEY_sign_init(context) <= 0
        || crypto.EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PADDING) <= 0
        || crypto.EVP_PKEY_CTX_set_signature_md(context, crypto.EVP_sha256()) <= 0) {
        crypto.EVP_PKEY_CTX_free(context);
        return NULL;
    }
    return context;
}

static EVP_PKEY_CTX *thread_context(authdeck_libcrypto_rsa_key *key) {
    pthread_once(&context_key_once, make_context_key);
    struct thread_context *cached = pthread_getspecific(context_key);
    if (cached != NULL && cached->serial == key->serial) return cached->context;
    EVP_PKEY_CTX *context = new_signing_context(key->pkey);
    if (context == NULL) return NULL;
    if (cached == NULL) {
        cached = malloc(sizeof *cached);
        if (cached == NULL) {
            crypto.EVP_PKEY_CTX_free(context);
            return NULL;
        }
        if (pthread_setspecific(context_key, cached) != 0) {
            free(cached);
            crypto.EVP_PKEY_CTX_free(context);
            return NULL;
        }
    } else {
        crypto.EVP_PKEY_CTX_free(cached->context);
    }
    cached->serial = key->serial;
    cached->context = context;
    return context;
}

size_t authdeck_libcrypto_rsa_sign_sha256(authdeck_libcrypto_rsa_key *key, const uint8_t *digest,
                                          uint8_t *signature, size_t capacity) {
    EVP_PKEY_CTX *context = thread_context(key);
    if (context == NULL) return 0;
    size_t length = capacity;
    if (crypto.EVP_PKEY_sign(context, signature, &length, digest, 32) <= 0) return 0;
    return length;
}
