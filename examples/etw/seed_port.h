/* examples/etw/seed_port.h — the few Windows SDK names the EnableTraceEx2 documentation's
 * sample (seed-sample.c) uses beyond the ETW headers, so that the sample compiles
 * unchanged apart from its includes and string prefixes. Each is defined only when no
 * other porting header defined it first (once pfc/etw/windows.h and pfc/etw/strsafe.h
 * exist, ZeroMemory and StringCchCopyW come from them). Sleep honours PFC_SEED_SLEEP_MS,
 * when set, as an upper bound (tests shorten the sample's 30 s wait). */
#ifndef PFC_EXAMPLES_SEED_PORT_H
#define PFC_EXAMPLES_SEED_PORT_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pfc/etw/evntrace.h"

/* The sample's entry point (the SAL annotations, __cdecl, __declspec(selectany), EXTERN_C
 * and the base types come from the ETW headers: docs/porting.md). */
#define wmain main

#ifndef MAX_PATH
#define MAX_PATH 260
#endif
#ifndef ZeroMemory
#define ZeroMemory(dest, length) ((void)memset((dest), 0, (length)))
#endif

#ifndef PFC_ETW_STRSAFE_H
/* strsafe.h: copies at most cch - 1 characters and always terminates; 0 (S_OK) when the
 * whole string fitted. */
static inline long StringCchCopyW(LPWSTR dest, size_t cch, LPCWSTR src) {
  if (cch == 0) return -1;
  size_t i = 0;
  for (; i + 1 < cch && src[i] != 0; ++i) dest[i] = src[i];
  dest[i] = 0;
  return src[i] == 0 ? 0 : -1;
}
#endif

static inline void Sleep(DWORD ms) {
  const char* bound = getenv("PFC_SEED_SLEEP_MS");
  if (bound != NULL && strtoul(bound, NULL, 10) < ms) ms = (DWORD)strtoul(bound, NULL, 10);
  struct timespec t = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0) {
  }
}

#endif /* PFC_EXAMPLES_SEED_PORT_H */
