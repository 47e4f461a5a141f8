/* pfc/etw/pfc_etw_wprintf.h — the formatter behind StringCchPrintfW & co. (strsafe.h): a
 * WCHAR (UTF-16) format with the Windows meaning of its conversions, since glibc's swprintf
 * works on 32-bit wchar_t. As in Windows' wide printf functions:
 *   %s %ls %ws  a WCHAR string          %hs %S  a CHAR (UTF-8 here) string
 *   %c %lc %wc  a WCHAR                 %hc %C  a CHAR
 *   %d %i %u %o %x %X with hh, h, (none), l (32 bits, Windows' long), ll, I32, I64, I, z, j,
 *   t (64 bits); %e %E %f %F %g %G %a %A (L: long double); %p as 16 upper-case hex digits;
 *   flags - + space # 0, width and precision (also *); %% is a percent sign.
 * A NULL string prints "(null)". %n, any other conversion and a width or precision above
 * 1000000 are refused
 * (STRSAFE_E_INVALID_PARAMETER, the output so far terminated), as Windows' invalid-parameter
 * handling does. Compiles as C11 and C++. */
#ifndef PFC_ETW_WPRINTF_H
#define PFC_ETW_WPRINTF_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "windows.h"

/* The output buffer: len WCHARs written so far of cch (room for the terminator kept). */
typedef struct {
  LPWSTR dest;
  size_t cch;
  size_t len;
  int truncated;
} PfcEtwWideOut;

static inline void pfc_etw_wide_put(PfcEtwWideOut* out, WCHAR c) {
  if (out->len + 1 < out->cch) {
    out->dest[out->len++] = c;
  } else {
    out->truncated = 1;
  }
}

/* One conversion's parsed flags, width and precision. */
typedef struct {
  char flags[8];
  int width;     /* -1: none */
  int precision; /* -1: none */
} PfcEtwWideSpec;

/* NOLINTBEGIN(modernize-use-nullptr, modernize-loop-convert): the code up to the C++
 * overloads compiles as C as well (no nullptr, no range-for). */

/* Puts the UTF-16 units of text (count of them), padded to spec->width with spaces. */
static inline void pfc_etw_wide_pad(PfcEtwWideOut* out, const PfcEtwWideSpec* spec, PCWSTR text,
                                    size_t count) {
  int left = strchr(spec->flags, '-') != NULL;
  size_t pad = spec->width > 0 && (size_t)spec->width > count ? (size_t)spec->width - count : 0;
  for (size_t i = 0; !left && i < pad && !out->truncated; ++i) pfc_etw_wide_put(out, u' ');
  for (size_t i = 0; i < count && !out->truncated; ++i) pfc_etw_wide_put(out, text[i]);
  for (size_t i = 0; left && i < pad && !out->truncated; ++i) pfc_etw_wide_put(out, u' ');
}

/* Puts a WCHAR string (at most precision units), padded. */
static inline void pfc_etw_wide_string(PfcEtwWideOut* out, const PfcEtwWideSpec* spec, PCWSTR s) {
  if (s == NULL) s = u"(null)";
  size_t n = 0;
  while (s[n] != 0 && (spec->precision < 0 || n < (size_t)spec->precision)) ++n;
  pfc_etw_wide_pad(out, spec, s, n);
}

/* Puts a UTF-8 string converted to UTF-16 (at most precision units), padded. 0 when memory
 * runs out. */
static inline int pfc_etw_narrow_string(PfcEtwWideOut* out, const PfcEtwWideSpec* spec,
                                        const char* s) {
  if (s == NULL) s = "(null)";
  size_t n = pfc_utf8_to_utf16(s, NULL, 0);
  PWSTR wide = (PWSTR)malloc((n + 1) * sizeof(WCHAR));
  if (wide == NULL) return 0;
  pfc_utf8_to_utf16(s, wide, n + 1);
  if (spec->precision >= 0 && n > (size_t)spec->precision) n = (size_t)spec->precision;
  pfc_etw_wide_pad(out, spec, wide, n);
  free(wide);
  return 1;
}

/* Builds "%<flags>*.*<length><conversion>" for snprintf. */
static inline void pfc_etw_narrow_format(char* format, const PfcEtwWideSpec* spec,
                                         const char* length, char conversion) {
  snprintf(format, 32, "%%%s*.*%s%c", spec->flags, length, conversion);
}

/* snprintf of one number (its ASCII text) onto out; 0 on an encoding error or no memory. */
#define PFC_ETW_WIDE_NUMBER(out, format, spec, value)                                          \
  do {                                                                                         \
    char small_[128];                                                                          \
    int n_ = snprintf(small_, sizeof small_, format, (spec)->width, (spec)->precision, value); \
    char* text_ = n_ >= (int)sizeof small_ ? (char*)malloc((size_t)n_ + 1) : small_;           \
    if (n_ < 0 || text_ == NULL) return 0;                                                     \
    if (text_ != small_)                                                                       \
      snprintf(text_, (size_t)n_ + 1, format, (spec)->width, (spec)->precision, value);        \
    for (int i_ = 0; i_ < n_; ++i_) pfc_etw_wide_put(out, (WCHAR)(unsigned char)text_[i_]);    \
    if (text_ != small_) free(text_);                                                          \
  } while (0)

/* Reads a decimal number or '*' (an int argument) at format[*i] into *value (unchanged if
 * there is neither); *star says which. 0 if the number is above PFC_ETW_WPRINTF_MAX_COUNT. */
#define PFC_ETW_WPRINTF_MAX_COUNT 1000000
static inline int pfc_etw_wide_count(PCWSTR format, size_t* i, va_list* args, int* value,
                                     int* star) {
  *star = format[*i] == u'*';
  if (*star) {
    ++*i;
    *value = va_arg(*args, int);
    return *value >= -PFC_ETW_WPRINTF_MAX_COUNT && *value <= PFC_ETW_WPRINTF_MAX_COUNT;
  }
  for (int first = 1; format[*i] >= u'0' && format[*i] <= u'9'; ++*i, first = 0) {
    *value = (first ? 0 : *value * 10) + (format[*i] - u'0');
    if (*value > PFC_ETW_WPRINTF_MAX_COUNT) return 0;
  }
  return 1;
}

/* The bits of the length modifier at format[*i] (advancing past it): 8, 16, 32 (l, I32, w:
 * Windows' long is 32 bits), 64 (ll, I64, I, z, j, t), 'L' (long double), 0 for none. */
static inline int pfc_etw_wide_length(PCWSTR f, size_t* i) {
  static const struct {
    char16_t text[4];
    int bits;
  } lengths[] = {{u"hh", 8},   {u"h", 16}, {u"ll", 64}, {u"l", 32}, {u"w", 32}, {u"I64", 64},
                 {u"I32", 32}, {u"I", 64}, {u"z", 64},  {u"j", 64}, {u"t", 64}, {u"L", 'L'}};
  for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; ++k) {
    size_t n = 0;
    while (lengths[k].text[n] != 0 && f[*i + n] == lengths[k].text[n]) ++n;
    if (lengths[k].text[n] == 0) {
      *i += n;
      return lengths[k].bits;
    }
  }
  return 0;
}

/* Parses flags, width and precision at format[*i] into spec; then the length modifier's
 * bits (pfc_etw_wide_length), or -1 for a width or precision above
 * PFC_ETW_WPRINTF_MAX_COUNT (refused). */
static inline int pfc_etw_wide_parse(PCWSTR format, size_t* i, PfcEtwWideSpec* spec,
                                     va_list* args) {
  size_t nflags = 0;
  while (format[*i] != 0 && format[*i] < 0x80 && strchr("-+ #0", (char)format[*i]) != NULL) {
    if (nflags + 2 < sizeof spec->flags) spec->flags[nflags++] = (char)format[*i];
    ++*i;
  }
  int star = 0;
  if (!pfc_etw_wide_count(format, i, args, &spec->width, &star)) return -1;
  if (star && spec->width < 0) { /* a negative '*' width means '-' */
    spec->flags[nflags++] = '-';
    spec->width = -spec->width;
  }
  spec->flags[nflags] = 0;
  if (format[*i] == u'.') {
    ++*i;
    spec->precision = 0;
    if (!pfc_etw_wide_count(format, i, args, &spec->precision, &star)) return -1;
    if (spec->precision < 0) spec->precision = -1; /* a negative '*' precision: none */
  }
  return pfc_etw_wide_length(format, i);
}

/* One conversion at format[*i] (just past the '%'); 0 if refused or out of memory. */
static inline int pfc_etw_wide_convert(PfcEtwWideOut* out, PCWSTR format, size_t* i,
                                       va_list* args) {
  PfcEtwWideSpec spec = {{0}, -1, -1};
  int bits = pfc_etw_wide_parse(format, i, &spec, args);
  if (bits < 0) return 0;
  WCHAR conversion = format[(*i)++];
  char narrow[32];
  switch (conversion) {
    case u'd':
    case u'i':
    case u'u':
    case u'o':
    case u'x':
    case u'X':
      if (bits == 64) {
        pfc_etw_narrow_format(narrow, &spec, "ll", (char)conversion);
        PFC_ETW_WIDE_NUMBER(out, narrow, &spec, va_arg(*args, long long));
      } else {
        pfc_etw_narrow_format(narrow, &spec,
                              bits == 8    ? "hh"
                              : bits == 16 ? "h"
                                           : "",
                              (char)conversion);
        PFC_ETW_WIDE_NUMBER(out, narrow, &spec, va_arg(*args, int));
      }
      return 1;
    case u'e':
    case u'E':
    case u'f':
    case u'F':
    case u'g':
    case u'G':
    case u'a':
    case u'A':
      pfc_etw_narrow_format(narrow, &spec, bits == 'L' ? "L" : "", (char)conversion);
      if (bits == 'L') {
        PFC_ETW_WIDE_NUMBER(out, narrow, &spec, va_arg(*args, long double));
      } else {
        PFC_ETW_WIDE_NUMBER(out, narrow, &spec, va_arg(*args, double));
      }
      return 1;
    case u'p':
      spec.precision = 16;
      pfc_etw_narrow_format(narrow, &spec, "ll", 'X');
      PFC_ETW_WIDE_NUMBER(out, narrow, &spec, (unsigned long long)(uintptr_t)va_arg(*args, void*));
      return 1;
    case u's':
    case u'S':
      if (conversion == u'S' || bits == 16)
        return pfc_etw_narrow_string(out, &spec, va_arg(*args, const char*));
      pfc_etw_wide_string(out, &spec, va_arg(*args, PCWSTR));
      return 1;
    case u'c':
    case u'C': {
      int c = va_arg(*args, int);
      WCHAR one = (WCHAR)c;
      if (conversion == u'C' || bits == 16)
        one = (c & 0xFF) < 0x80 ? (WCHAR)(c & 0xFF) : (WCHAR)0xFFFD;
      pfc_etw_wide_pad(out, &spec, &one, 1);
      return 1;
    }
    default: return 0;
  }
}

/* Formats format and args into dest (cch_dest > 0 WCHARs), always terminated: S_OK,
 * STRSAFE_E_INSUFFICIENT_BUFFER (truncated) or STRSAFE_E_INVALID_PARAMETER (a refused
 * conversion, or no memory for a narrow string). */
static inline HRESULT pfc_etw_vwprintf(LPWSTR dest, size_t cch_dest, PCWSTR format, va_list args) {
  PfcEtwWideOut out = {dest, cch_dest, 0, 0};
  va_list copy;
  va_copy(copy, args);
  HRESULT hr = S_OK;
  for (size_t i = 0; format[i] != 0 && hr == S_OK;) {
    if (format[i] != u'%') {
      pfc_etw_wide_put(&out, format[i++]);
    } else if (format[i + 1] == u'%') {
      pfc_etw_wide_put(&out, u'%');
      i += 2;
    } else {
      ++i;
      if (!pfc_etw_wide_convert(&out, format, &i, &copy)) hr = (HRESULT)0x80070057;
    }
  }
  va_end(copy);
  dest[out.len] = 0;
  if (hr == S_OK && out.truncated) hr = (HRESULT)0x8007007A;
  return hr;
}
/* NOLINTEND(modernize-use-nullptr, modernize-loop-convert) */

#ifdef __cplusplus
/* C++: wprintf and fwprintf with a WCHAR format, as ported code calls them (`wprintf(u"%ls\n",
 * name)`): the text is formatted as above and written to the stream as UTF-8. They are
 * overloads beside the C library's wchar_t ones (C has no overloads: there, format with
 * StringCchPrintfW and print with pfc_utf16_to_utf8). Return the number of WCHARs
 * written, or -1 (a refused conversion, no memory, a write error). */
static inline int pfc_etw_vfwprintf(FILE* stream, PCWSTR format, va_list args) {
  for (size_t cch = 256;; cch *= 4) {
    LPWSTR text = (LPWSTR)malloc(cch * sizeof(WCHAR));
    if (text == nullptr) return -1;
    va_list copy;
    va_copy(copy, args);
    const HRESULT hr = pfc_etw_vwprintf(text, cch, format, copy);
    va_end(copy);
    if (hr == (HRESULT)0x8007007A && cch < ((size_t)1 << 26)) {
      free(text);
      continue;
    }
    const size_t bytes = hr == S_OK ? pfc_utf16_to_utf8(text, nullptr, 0) : 0;
    char* utf8 = hr == S_OK ? (char*)malloc(bytes + 1) : nullptr;
    int written = -1;
    if (utf8 != nullptr) {
      pfc_utf16_to_utf8(text, utf8, bytes + 1);
      if (fwrite(utf8, 1, bytes, stream) == bytes) written = (int)pfc_wcslen(text);
    }
    free(utf8);
    free(text);
    return written;
  }
}

inline int fwprintf(FILE* stream, const char16_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = pfc_etw_vfwprintf(stream, format, args);
  va_end(args);
  return n;
}

inline int wprintf(const char16_t* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = pfc_etw_vfwprintf(stdout, format, args);
  va_end(args);
  return n;
}
#endif

#endif /* PFC_ETW_WPRINTF_H */
