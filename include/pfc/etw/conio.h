/* pfc/etw/conio.h — the C runtime's console key read that Windows ETW controllers use to
 * wait ("hit any key to stop the session"): _getch. Compiles as C11 and C++
 * (docs/porting.md "The rest of Windows"). */
#ifndef PFC_ETW_CONIO_H
#define PFC_ETW_CONIO_H

#include <stdio.h>
#include <termios.h>

/* Reads one byte of standard input without waiting for a line and without echo, as
 * Windows' _getch reads one key: on a terminal the line discipline is switched off for
 * the read and restored afterwards; from a pipe or file it is the next byte. Returns the
 * byte (0-255), or EOF at the end of the input or on a read error (Windows has no end of
 * console input). Keys that send several bytes (arrows, F-keys) are returned one byte per
 * call, where Windows returns 0 or 0xE0 and then a scan code. */
static inline int _getch(void) {
  struct termios saved;
  int on_tty = tcgetattr(0, &saved) == 0;
  if (on_tty) {
    struct termios raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    on_tty = tcsetattr(0, TCSANOW, &raw) == 0;
  }
  int c = getc(stdin);
  if (on_tty) (void)tcsetattr(0, TCSANOW, &saved);
  return c;
}

#endif /* PFC_ETW_CONIO_H */
