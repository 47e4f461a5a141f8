/* pfc/etw/strsafe.h — the StringCch* / StringCb* copy and length helpers of the SDK's
 * strsafe.h, for WCHAR (UTF-16, char16_t) and CHAR strings: the destination is always
 * terminated; a source that does not fit is truncated and STRSAFE_E_INSUFFICIENT_BUFFER
 * returned, as on Windows. Sizes: cch = characters, cb = bytes. Compiles as C11 and C++. */
#ifndef PFC_ETW_STRSAFE_H
#define PFC_ETW_STRSAFE_H

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

#endif /* PFC_ETW_STRSAFE_H */
