/* tests/etw/etw_test_main.c — runs the TEST()s of the C test files: `etw_c_test NAME` runs
 * one (how ctest calls it), no argument runs all in registration order, `--list` lists. */
#include <string.h>

#include "etw_test.h"

enum { kMaxTests = 256 };
static struct {
  const char* name;
  etw_test_fn fn;
} tests[kMaxTests];
static int test_count;
static const char* current;

void etw_register_test(const char* name, etw_test_fn fn) {
  if (test_count == kMaxTests) abort();
  tests[test_count].name = name;
  tests[test_count].fn = fn;
  ++test_count;
}

void etw_test_fail(const char* file, int line, const char* what) {
  fprintf(stderr, "%s:%d: [%s] check failed: %s\n", file, line, current ? current : "?", what);
  exit(1);
}

int main(int argc, char** argv) {
  int ran = 0;
  for (int i = 0; i < test_count; ++i) {
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
      printf("%s\n", tests[i].name);
      continue;
    }
    if (argc > 1 && strcmp(argv[1], tests[i].name) != 0) continue;
    current = tests[i].name;
    tests[i].fn();
    printf("ok %s\n", tests[i].name);
    ++ran;
  }
  if (argc > 1 && strcmp(argv[1], "--list") == 0) return 0;
  if (ran == 0) {
    fprintf(stderr, "no test named %s\n", argc > 1 ? argv[1] : "(any)");
    return 1;
  }
  return 0;
}
