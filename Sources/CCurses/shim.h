#ifndef AUTHDECK_CCURSES_SHIM_H
#define AUTHDECK_CCURSES_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <locale.h>
#endif
