#ifndef AUTHDECK_CQRENCODE_SHIM_H
#define AUTHDECK_CQRENCODE_SHIM_H
// libqrencode (Debian's libqrencode-dev): QR code symbols for the TOTP enrollment screen.
#include <qrencode.h>
#endif
