#ifndef AUTHDECK_CLIBCRYPTO_H
#define AUTHDECK_CLIBCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// An RSA private key held by the system's OpenSSL 3 (libcrypto.so.3, loaded with dlopen at the
/// first call, so a process that never signs never loads it).
typedef struct authdeck_libcrypto_rsa_key authdeck_libcrypto_rsa_key;

/// The key in `pem` (PKCS#1 or PKCS#8), or NULL when libcrypto.so.3 cannot be loaded or reads no
/// RSA key from it.
authdeck_libcrypto_rsa_key *authdeck_libcrypto_rsa_key_new(const char *pem, size_t length);

void authdeck_libcrypto_rsa_key_free(authdeck_libcrypto_rsa_key *key);

/// RSASSA-PKCS1-v1_5 with SHA-256 over a 32-byte `digest`, into `signature` (`capacity` bytes, at
/// least the modulus's size). Returns the signature's length, or 0 on failure. Safe from any
/// thread: each thread keeps its own signing context.
size_t authdeck_libcrypto_rsa_sign_sha256(authdeck_libcrypto_rsa_key *key, const uint8_t *digest,
                                          uint8_t *signature, size_t capacity);

#endif
