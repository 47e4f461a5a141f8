/* tests/utf16_out.h — printing the UTF-16 texts TDH returns, for the C test consumers
 * (tests/tdh_api/tdh_decode_consumer.c, tests/etw/tlg/tlg_consumer.c). */
#ifndef PFC_TESTS_UTF16_OUT_H
#define PFC_TESTS_UTF16_OUT_H

#include <stdio.h>

#include "pfc/etw/evntcons.h"

/* UTF-16 → UTF-8 on stdout (the texts of these tests are in the BMP); NULL prints nothing. */
static inline void put16(const WCHAR* s) {
  for (; s != NULL && *s != 0; ++s) {
    unsigned c = *s;
    if (c < 0x80) {
      putchar((int)c);
    } else if (c < 0x800) {
      putchar((int)(0xC0 | c >> 6));
      putchar((int)(0x80 | (c & 0x3F)));
    } else {
      putchar((int)(0xE0 | c >> 12));
      putchar((int)(0x80 | (c >> 6 & 0x3F)));
      putchar((int)(0x80 | (c & 0x3F)));
    }
  }
}

/* The text at `offset` bytes into a TDH result (TRACE_EVENT_INFO, EVENT_MAP_INFO); NULL for
 * offset 0, which TDH uses for "none". */
static inline const WCHAR* at(const void* base, ULONG offset) {
  return offset == 0 ? NULL : (const WCHAR*)((const BYTE*)base + offset);
}

#endif /* PFC_TESTS_UTF16_OUT_H */
