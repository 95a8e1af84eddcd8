#ifndef AUTHDECK_CQRENCODE_H
#define AUTHDECK_CQRENCODE_H

// libqrencode (Debian's libqrencode4) for the TOTP enrollment screen and `authdeck ssh --qr`, loaded
// with dlopen at the first QR code: no console start pays for mapping it. Its header (libqrencode-dev)
// gives the types.
#include <qrencode.h>

/// Why libqrencode cannot be used (it is not installed, or lacks a function), or NULL when it can.
/// Loads it at the first call.
const char *authdeck_qrencode_unavailable(void);

/// The smallest symbol that holds `text` (libqrencode's QRcode_encodeString, 8-bit mode), or NULL
/// when none does or the library cannot be used.
QRcode *authdeck_qrencode_encode_string(const char *text, QRecLevel level);

/// libqrencode's QRcode_free, for a symbol the function above returned.
void authdeck_qrencode_free(QRcode *symbol);

#endif
