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

static inline HRESULT StringCchLengthW(PCWSTR s, size_t cch_max, size_t* length) {
  size_t n = 0;
  if (s == NULL || cch_max > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  while (n < cch_max && s[n] != 0) ++n;
  if (n == cch_max) return STRSAFE_E_INVALID_PARAMETER;
  if (length != NULL) *length = n;
  return S_OK;
}

static inline HRESULT StringCchLengthA(PCSTR s, size_t cch_max, size_t* length) {
  size_t n = 0;
  if (s == NULL || cch_max > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  while (n < cch_max && s[n] != 0) ++n;
  if (n == cch_max) return STRSAFE_E_INVALID_PARAMETER;
  if (length != NULL) *length = n;
  return S_OK;
}

static inline HRESULT StringCchCopyW(LPWSTR dest, size_t cch_dest, PCWSTR src) {
  size_t i = 0;
  if (cch_dest == 0 || cch_dest > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  for (; i + 1 < cch_dest && src[i] != 0; ++i) dest[i] = src[i];
  dest[i] = 0;
  return src[i] == 0 ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;
}

static inline HRESULT StringCchCopyA(LPSTR dest, size_t cch_dest, PCSTR src) {
  size_t i = 0;
  if (cch_dest == 0 || cch_dest > STRSAFE_MAX_CCH) return STRSAFE_E_INVALID_PARAMETER;
  for (; i + 1 < cch_dest && src[i] != 0; ++i) dest[i] = src[i];
  dest[i] = 0;
  return src[i] == 0 ? S_OK : STRSAFE_E_INSUFFICIENT_BUFFER;
}

static inline HRESULT StringCbCopyW(LPWSTR dest, size_t cb_dest, PCWSTR src) {
  return StringCchCopyW(dest, cb_dest / sizeof(WCHAR), src);
}

static inline HRESULT StringCbCopyA(LPSTR dest, size_t cb_dest, PCSTR src) {
  return StringCchCopyA(dest, cb_dest, src);
}

#endif /* PFC_ETW_STRSAFE_H */
