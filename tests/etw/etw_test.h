/* tests/etw/etw_test.h — a minimal C test harness for the ETW-compatible API: TEST(name)
 * registers a function, CHECK* abort the current test with file:line. etw_test_main.c runs
 * one named test (as ctest does) or all of them. */
#ifndef PFC_TESTS_ETW_TEST_H
#define PFC_TESTS_ETW_TEST_H

#include <stdio.h>
#include <stdlib.h>

typedef void (*etw_test_fn)(void);
void etw_register_test(const char* name, etw_test_fn fn);
void etw_test_fail(const char* file, int line, const char* what);

#define TEST(name)                                                 \
  static void test_##name(void);                                   \
  __attribute__((constructor)) static void register_##name(void) { \
    etw_register_test(#name, test_##name);                         \
  }                                                                \
  static void test_##name(void)

#define CHECK(cond)                                        \
  do {                                                     \
    if (!(cond)) etw_test_fail(__FILE__, __LINE__, #cond); \
  } while (0)

#define CHECK_EQ(a, b)                                                          \
  do {                                                                          \
    unsigned long long va_ = (unsigned long long)(a);                           \
    unsigned long long vb_ = (unsigned long long)(b);                           \
    if (va_ != vb_) {                                                           \
      char buf_[512];                                                           \
      snprintf(buf_, sizeof buf_, "%s == %s (%llu vs %llu)", #a, #b, va_, vb_); \
      etw_test_fail(__FILE__, __LINE__, buf_);                                  \
    }                                                                           \
  } while (0)

#endif /* PFC_TESTS_ETW_TEST_H */
