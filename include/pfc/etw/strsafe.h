/* pfc/etw/strsafe.h — the StringCch* / StringCb* copy, concatenation, length and printf
 * helpers of the SDK's strsafe.h, for WCHAR (UTF-16, char16_t) and CHAR strings: the
 * destination is always terminated; a result that does not fit is truncated and
 * STRSAFE_E_INSUFFICIENT_BUFFER returned, as on Windows. Sizes: cch = characters, cb =
 * bytes. The unsuffixed names are the W forms, as with UNICODE defined. Compiles as C11 and
 * C++. */
#ifndef PFC_ETW_STRSAFE_H
#define PFC_ETW_STRSAFE_H

#include <stdarg.h>
#include <stdio.h>

#include "windows.h"

#define STRSAFE_MAX_CCH 2147483647u
#define STRSAFE_E_INSUFFICIENT_BUFFER ((HRESULT)0x8007007A)
#define STRSAFE_E_INVALID_PARAMETER ((HRESULT)0x80070057)

/* One body for the W (WCHAR) and A (CHAR) forms of each function. */
#define PFC_ETW_STRSAFE_LENGTH(name, string_type)                                   \
  static inline HRESULT name(string_type s, size_t cch_max, size_t* length) {       \
    size_t n = 0;                                                                   \
    if (s == NULL || cch_max > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER; \
    while (n < cch_max && s[n] != 0) ++n;                                           \
    if (n == cch_max) return STRSAFE_E_INVALID_PARAMETER;                           \
    if (length != NULL) *length = n;                                                \
    return S_OK;                                                                    \
  }
#define PFC_ETW_STRSAFE_COPY(name, dest_type, src_type)                                  \
  static inline HRESULT name(dest_type dest, size_t cch_dest, src_type src) {            \
    size_t i = 0;                                                                        \
    if (cch_dest == 0 || cch_dest > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER; \
    for (; i + 1 < cch_dest && src[i] != 0; ++i) dest[i] = src[i];                       \
    dest[i] = 0;                                                                         \
    return src[i] == 0 ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;                           \
  }

PFC_ETW_STRSAFE_LENGTH(StringCchLengthW, PCWSTR)
PFC_ETW_STRSAFE_LENGTH(StringCchLengthA, PCSTR)
PFC_ETW_STRSAFE_COPY(StringCchCopyW, LPWSTR, PCWSTR)
PFC_ETW_STRSAFE_COPY(StringCchCopyA, LPSTR, PCSTR)

static inline HRESULT StringCbCopyW(LPWSTR dest, size_t cb_dest, PCWSTR src) {
  return StringCchCopyW(dest, cb_dest / sizeof(WCHAR), src);
}

static inline HRESULT StringCbCopyA(LPSTR dest, size_t cb_dest, PCSTR src) {
  return StringCchCopyA(dest, cb_dest, src);
}

static inline HRESULT StringCbLengthW(PCWSTR s, size_t cb_max, size_t* cb_length) {
  size_t n = 0;
  HRESULT hr = StringCchLengthW(s, cb_max / sizeof(WCHAR), &n);
  /* NOLINTNEXTLINE(modernize-use-nullptr): C as well */
  if (hr == S_OK && cb_length != NULL) *cb_length = n * sizeof(WCHAR);
  return hr;
}

static inline HRESULT StringCbLengthA(PCSTR s, size_t cb_max, size_t* cb_length) {
  return StringCchLengthA(s, cb_max, cb_length);
}

/* Appends src to the string in dest (cch_dest characters in all); INVALID_PARAMETER if
 * dest holds no terminator within cch_dest. */
#define PFC_ETW_STRSAFE_CAT(name, length, copy, dest_type, src_type)          \
  static inline HRESULT name(dest_type dest, size_t cch_dest, src_type src) { \
    size_t used = 0;                                                          \
    HRESULT hr = length(dest, cch_dest, &used);                               \
    return hr != S_OK ? hr : copy(dest + used, cch_dest - used, src);         \
  }
PFC_ETW_STRSAFE_CAT(StringCchCatW, StringCchLengthW, StringCchCopyW, LPWSTR, PCWSTR)
PFC_ETW_STRSAFE_CAT(StringCchCatA, StringCchLengthA, StringCchCopyA, LPSTR, PCSTR)

static inline HRESULT StringCbCatW(LPWSTR dest, size_t cb_dest, PCWSTR src) {
  return StringCchCatW(dest, cb_dest / sizeof(WCHAR), src);
}

static inline HRESULT StringCbCatA(LPSTR dest, size_t cb_dest, PCSTR src) {
  return StringCchCatA(dest, cb_dest, src);
}

/* vsnprintf into dest, with Windows' results. The conversions are glibc's (%ls takes a
 * 32-bit wchar_t string, %ld a 64-bit long: pass LONG / ULONG with %d / %u or PRIu32). */
__attribute__((__format__(__printf__, 3, 0))) static inline HRESULT StringCchVPrintfA(
    LPSTR dest, size_t cch_dest, PCSTR format, va_list args) {
  if (cch_dest == 0 || cch_dest > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  int n = vsnprintf(dest, cch_dest, format, args);
  if (n < 0) {
    dest[0] = 0;
    return STRSAFE_E_INVALID_PARAMETER;
  }
  return (size_t)n < cch_dest ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;
}

__attribute__((__format__(__printf__, 3, 4))) static inline HRESULT StringCchPrintfA(
    LPSTR dest, size_t cch_dest, PCSTR format, ...) {
  va_list args;
  va_start(args, format);
  HRESULT hr = StringCchVPrintfA(dest, cch_dest, format, args);
  va_end(args);
  return hr;
}

__attribute__((__format__(__printf__, 3, 4))) static inline HRESULT StringCbPrintfA(LPSTR dest,
                                                                                    size_t cb_dest,
                                                                                    PCSTR format,
                                                                                    ...) {
  va_list args;
  va_start(args, format);
  HRESULT hr = StringCchVPrintfA(dest, cb_dest, format, args);
  va_end(args);
  return hr;
}

#include "pfc_etw_wprintf.h"

static inline HRESULT StringCchVPrintfW(LPWSTR dest, size_t cch_dest, PCWSTR format, va_list args) {
  if (cch_dest == 0 || cch_dest > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  return pfc_etw_vwprintf(dest, cch_dest, format, args);
}

static inline HRESULT StringCchPrintfW(LPWSTR dest, size_t cch_dest, PCWSTR format, ...) {
  va_list args;
  va_start(args, format);
  HRESULT hr = StringCchVPrintfW(dest, cch_dest, format, args);
  va_end(args);
  return hr;
}

static inline HRESULT StringCbPrintfW(LPWSTR dest, size_t cb_dest, PCWSTR format, ...) {
  va_list args;
  va_start(args, format);
  HRESULT hr = StringCchVPrintfW(dest, cb_dest / sizeof(WCHAR), format, args);
  va_end(args);
  return hr;
}

static inline HRESULT StringCbVPrintfW(LPWSTR dest, size_t cb_dest, PCWSTR format, va_list args) {
  return StringCchVPrintfW(dest, cb_dest / sizeof(WCHAR), format, args);
}

__attribute__((__format__(__printf__, 3, 0))) static inline HRESULT StringCbVPrintfA(LPSTR dest,
                                                                                     size_t cb_dest,
                                                                                     PCSTR format,
                                                                                     va_list args) {
  return StringCchVPrintfA(dest, cb_dest, format, args);
}

/* The generic names, as the SDK defines them with UNICODE. */
#define StringCchCopy StringCchCopyW
#define StringCbCopy StringCbCopyW
#define StringCchLength StringCchLengthW
#define StringCbLength StringCbLengthW
#define StringCchCat StringCchCatW
#define StringCbCat StringCbCatW
#define StringCchPrintf StringCchPrintfW
#define StringCbPrintf StringCbPrintfW
#define StringCchVPrintf StringCchVPrintfW
#define StringCbVPrintf StringCbVPrintfW

#endif /* PFC_ETW_STRSAFE_H */
