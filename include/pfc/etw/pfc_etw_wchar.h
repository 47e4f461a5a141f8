/* pfc/etw/pfc_etw_wchar.h — helpers for WCHAR strings, which are UTF-16 (char16_t) here
 * while the C library's wide functions (wcslen, wprintf, %ls) take 32-bit wchar_t, so they
 * cannot be applied to WCHAR (docs/porting.md "WCHAR strings"). Included by windows.h.
 * All are inline and need nothing but the C library. Compiles as C11 and C++. */
#ifndef PFC_ETW_WCHAR_H
#define PFC_ETW_WCHAR_H

#include <stdlib.h>
#include <wchar.h>

#include "pfc_etw_types.h"

/* The number of WCHARs before the terminating 0 (wcslen for WCHAR). */
static inline size_t pfc_wcslen(PCWSTR s) {
  size_t n = 0;
  while (s[n] != 0) ++n;
  return n;
}

/* Generated code (mc's templates) calls wcslen on PCWSTR arguments: for a WCHAR pointer it
 * is pfc_wcslen, for a wchar_t pointer the C library's (C11 _Generic; C++ an overload). */
#ifdef __cplusplus
static inline size_t wcslen(const char16_t* s) { return pfc_wcslen(s); }
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define wcslen(s) \
  _Generic((s), WCHAR * : pfc_wcslen, const WCHAR* : pfc_wcslen, default : wcslen)(s)
#endif

/* The code point starting at s[*i] (advancing *i past it); an unpaired surrogate is
 * U+FFFD. */
static inline uint32_t pfc_etw_utf16_next(PCWSTR s, size_t* i) {
  uint32_t c = s[(*i)++];
  if (c >= 0xD800 && c < 0xDC00 && s[*i] >= 0xDC00 && s[*i] < 0xE000)
    return 0x10000 + ((c - 0xD800) << 10) + (s[(*i)++] - 0xDC00);
  return (c >= 0xD800 && c < 0xE000) ? 0xFFFD : c;
}

/* Converts the 0-terminated UTF-16 string src to UTF-8 (an unpaired surrogate becomes
 * U+FFFD). Writes at most dst_size bytes including the terminating 0, never a partial
 * sequence; dst may be NULL when dst_size is 0. Returns the length in bytes of the whole
 * conversion without the 0, as snprintf: the text was truncated if the result is >=
 * dst_size. This is the way to print a WCHAR string: convert, then printf("%s"). */
static inline size_t pfc_utf16_to_utf8(PCWSTR src, char* dst, size_t dst_size) {
  size_t in = 0, out = 0, stop = 0;
  while (src[in] != 0) {
    uint32_t c = pfc_etw_utf16_next(src, &in);
    unsigned char b[4];
    size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    static const unsigned char lead[5] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (size_t k = n - 1; k > 0; --k, c >>= 6) b[k] = (unsigned char)(0x80 | (c & 0x3F));
    b[0] = (unsigned char)(lead[n] | c);
    if (stop == 0 && out + n < dst_size) {
      for (size_t k = 0; k < n; ++k) dst[out + k] = (char)b[k];
    } else if (stop == 0) {
      stop = out + 1; /* the first sequence that does not fit ends the copy */
    }
    out += n;
  }
  if (dst_size > 0) dst[stop ? stop - 1 : out] = 0;
  return out;
}

/* The code point of the UTF-8 sequence at s (advancing s); a byte that does not start a
 * valid, shortest sequence of a scalar value is U+FFFD and is skipped alone. */
static inline uint32_t pfc_etw_utf8_next(const unsigned char** s) {
  const unsigned char* p = *s;
  size_t n = p[0] < 0x80   ? 1
             : p[0] < 0xC2 ? 0
             : p[0] < 0xE0 ? 2
             : p[0] < 0xF0 ? 3
             : p[0] < 0xF5 ? 4
                           : 0;
  uint32_t c = n == 1 ? p[0] : n == 2 ? (p[0] & 0x1Fu) : n == 3 ? (p[0] & 0x0Fu) : (p[0] & 0x07u);
  for (size_t k = 1; k < n; ++k) {
    if ((p[k] & 0xC0) != 0x80) n = 0;
    if (n == 0) break;
    c = (c << 6) | (p[k] & 0x3Fu);
  }
  if (n == 0 || (n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
      (c >= 0xD800 && c < 0xE000)) {
    *s = p + 1;
    return 0xFFFD;
  }
  *s = p + n;
  return c;
}

/* Converts the 0-terminated UTF-8 string src to UTF-16 (invalid bytes become U+FFFD).
 * Writes at most dst_cch WCHARs including the terminating 0, never half a surrogate pair;
 * dst may be NULL when dst_cch is 0. Returns the length in WCHARs of the whole conversion
 * without the 0: the text was truncated if the result is >= dst_cch. */
static inline size_t pfc_utf8_to_utf16(const char* src, PWSTR dst, size_t dst_cch) {
  const unsigned char* p = (const unsigned char*)src;
  size_t out = 0, stop = 0;
  while (*p != 0) {
    uint32_t c = pfc_etw_utf8_next(&p);
    size_t n = c < 0x10000 ? 1 : 2;
    if (stop == 0 && out + n < dst_cch) {
      if (n == 1) {
        dst[out] = (WCHAR)c;
      } else {
        dst[out] = (WCHAR)(0xD800 + ((c - 0x10000) >> 10));
        dst[out + 1] = (WCHAR)(0xDC00 + ((c - 0x10000) & 0x3FF));
      }
    } else if (stop == 0) {
      stop = out + 1;
    }
    out += n;
  }
  if (dst_cch > 0) dst[stop ? stop - 1 : out] = 0;
  return out;
}

/* wmain's argv: argv[0..argc-1] (UTF-8, as Linux passes them) converted to 0-terminated
 * UTF-16 strings, followed by a NULL pointer, in one allocation that
 * pfc_free_wide_argv releases. NULL if argc < 0 or memory runs out. */
/* NOLINTBEGIN(modernize-use-nullptr): C as well */
static inline PWSTR* pfc_wide_argv(int argc, char** argv) {
  if (argc < 0) return NULL;
  size_t chars = 0;
  for (int i = 0; i < argc; ++i) chars += pfc_utf8_to_utf16(argv[i], NULL, 0) + 1;
  size_t pointers = ((size_t)argc + 1) * sizeof(PWSTR);
  PWSTR* result = (PWSTR*)malloc(pointers + chars * sizeof(WCHAR));
  if (result == NULL) return NULL;
  PWSTR next = (PWSTR)((char*)result + pointers);
  for (int i = 0; i < argc; ++i) {
    size_t n = pfc_utf8_to_utf16(argv[i], next, chars) + 1;
    result[i] = next;
    next += n;
    chars -= n;
  }
  result[argc] = NULL;
  return result;
}
/* NOLINTEND(modernize-use-nullptr) */

/* Releases what pfc_wide_argv returned (NULL is allowed). */
static inline void pfc_free_wide_argv(PWSTR* wide_argv) { free((void*)wide_argv); }

#endif /* PFC_ETW_WCHAR_H */
