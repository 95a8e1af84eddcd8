#ifndef AUTHDECK_CCURSES_SHIM_H
#define AUTHDECK_CCURSES_SHIM_H
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

// Swift cannot see curses' globals and function-like macros, nor call variadic
// C (ioctl); these wrappers expose exactly what TerminalUI uses, nothing more.

static inline WINDOW *authdeck_stdscr(void) { return stdscr; }
static inline int authdeck_cols(void) { return COLS; }
static inline int authdeck_lines(void) { return LINES; }
static inline int authdeck_colors(void) { return COLORS; }

static inline attr_t authdeck_a_bold(void) { return A_BOLD; }
static inline attr_t authdeck_a_reverse(void) { return A_REVERSE; }
static inline attr_t authdeck_a_underline(void) { return A_UNDERLINE; }
static inline attr_t authdeck_a_dim(void) { return A_DIM; }

/// newterm instead of initscr: initscr exits the process when the terminal is unusable.
static inline SCREEN *authdeck_newterm(void) { return newterm(NULL, stdout, stdin); }

/// LC_CTYPE alone is what curses and wcwidth read; LC_ALL would load every category's files at start.
static inline void authdeck_setlocale(void) { setlocale(LC_CTYPE, ""); }

static inline int authdeck_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/// wattr_set is a macro in this configuration.
static inline void authdeck_put(WINDOW *window, int row, int column, const char *utf8, attr_t attributes, int pair) {
    wattr_set(window, attributes, (short)pair, NULL);
    mvwaddstr(window, row, column, utf8);
    wattr_set(window, A_NORMAL, 0, NULL);
}

/// glibc declares wcwidth only under _XOPEN_SOURCE, which the Glibc module is not built with.
extern int wcwidth(wchar_t c);
static inline int authdeck_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }

static inline int authdeck_bytes_available(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

/// The size of the terminal on `fd`; 0 on success.
static inline int authdeck_window_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

#endif
