/* tests/porting/conio.c — conio.h's _getch, as a Windows controller waits on it ("hit any
 * key to stop the session", docs/porting.md): from a pipe it returns the next byte and
 * EOF at the end; on a terminal in line mode it returns a key typed without Enter, and
 * leaves the terminal's modes as it found them. Exits 0 when every check holds. */
#define _XOPEN_SOURCE 600
#include <conio.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int failures = 0;

#define CHECK(condition)                                                            \
  do {                                                                              \
    if (!(condition)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #condition); \
      ++failures;                                                                   \
    }                                                                               \
  } while (0)

/* Standard input becomes the read end of a pipe holding "k\x01" and then closed. */
static void check_pipe(void) {
  int fds[2];
  if (pipe(fds) != 0 || write(fds[1], "k\x01", 2) != 2 || close(fds[1]) != 0 ||
      dup2(fds[0], 0) != 0) {
    CHECK(!"pipe set-up");
    return;
  }
  close(fds[0]);
  clearerr(stdin);
  CHECK(_getch() == 'k');
  CHECK(_getch() == 1);
  CHECK(_getch() == EOF);
}

/* Standard input becomes a pseudo-terminal in its default line mode (ICANON, ECHO) with
 * one key typed and no Enter: _getch returns it, and the modes are line mode again. */
static void check_terminal(void) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    CHECK(!"pseudo-terminal set-up");
    return;
  }
  int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  struct termios before;
  if (slave < 0 || dup2(slave, 0) != 0 || tcgetattr(0, &before) != 0) {
    CHECK(!"pseudo-terminal set-up");
    return;
  }
  CHECK((before.c_lflag & ICANON) && (before.c_lflag & ECHO));
  clearerr(stdin);
  CHECK(write(master, "z", 1) == 1);
  alarm(30); /* a read that waited for Enter would never return */
  CHECK(_getch() == 'z');
  alarm(0);
  struct termios after;
  CHECK(tcgetattr(0, &after) == 0);
  CHECK(after.c_lflag == before.c_lflag);
  CHECK(after.c_cc[VMIN] == before.c_cc[VMIN] && after.c_cc[VTIME] == before.c_cc[VTIME]);
  close(slave);
  close(master);
}

int main(void) {
  check_pipe();
  check_terminal();
  if (failures != 0) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures == 0 ? 0 : 1;
}
