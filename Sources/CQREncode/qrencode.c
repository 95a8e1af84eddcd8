#include "CQREncode.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    QRcode *(*encode_string)(const char *, int, QRecLevel, QRencodeMode, int);
    void (*free)(QRcode *);
} qrencode;
static char load_error[256];
static pthread_once_t qrencode_once = PTHREAD_ONCE_INIT;

static void load_qrencode(void) {
    void *library = dlopen("libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error, "libqrencode.so.4 cannot be loaded (%s); install libqrencode4",
                 reason != NULL ? reason : "not found");
        return;
    }
    qrencode.encode_string = (QRcode *(*)(const char *, int, QRecLevel, QRencodeMode, int))dlsym(library, "QRcode_encodeString");
    qrencode.free = (void (*)(QRcode *))dlsym(library, "QRcode_free");
    if (qrencode.encode_string == NULL || qrencode.free == NULL) {
        qrencode.encode_string = NULL;
        snprintf(load_error, sizeof load_error, "libqrencode.so.4 lacks QRcode_encodeString or QRcode_free");
        dlclose(library);
    }
}

const char *authdeck_qrencode_unavailable(void) {
    pthread_once(&qrencode_once, load_qrencode);
    return qrencode.encode_string == NULL ? load_error : NULL;
}

QRcode *authdeck_qrencode_encode_string(const char *text, QRecLevel level) {
    if (authdeck_qrencode_unavailable() != NULL) return NULL;
    // Version 0: the smallest symbol that holds the text; case-sensitive.
    return qrencode.encode_string(text, 0, level, QR_MODE_8, 1);
}

void authdeck_qrencode_free(QRcode *symbol) {
    if (symbol != NULL) qrencode.free(symbol);
}
