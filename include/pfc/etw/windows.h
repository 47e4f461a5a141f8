/* pfc/etw/windows.h — the part of the SDK's windows.h an ETW provider or controller uses:
 * the base types, compiler and SAL macros (pfc_etw_types.h, sal.h), <stdlib.h>, <string.h>
 * and <wchar.h> (which the SDK's windows.h brings), the memory macros of winbase.h, TEXT,
 * FileTimeToSystemTime, StringFromGUID2, the WCHAR helpers (pfc_etw_wchar.h) and, in C++,
 * wprintf / fwprintf with a WCHAR format (pfc_etw_wprintf.h). With
 * `pkg-config --cflags pfc-etw`, `#include <windows.h>` finds this file (docs/porting.md).
 * Compiles as C11 and C++. */
#ifndef PFC_ETW_WINDOWS_H
#define PFC_ETW_WINDOWS_H

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "pfc_etw_types.h"
#include "pfc_etw_wchar.h"

#define ZeroMemory(dest, length) ((void)memset((dest), 0, (length)))
#define SecureZeroMemory(dest, length) ((void)memset((dest), 0, (length)))
#define FillMemory(dest, length, fill) ((void)memset((dest), (fill), (length)))
#define CopyMemory(dest, src, length) ((void)memcpy((dest), (src), (length)))
#define MoveMemory(dest, src, length) ((void)memmove((dest), (src), (length)))
#define RtlZeroMemory ZeroMemory
#define RtlCopyMemory CopyMemory
#define RtlMoveMemory MoveMemory
#define RtlFillMemory FillMemory

#define ARRAYSIZE(a) (sizeof(a) / sizeof((a)[0]))
#define UNREFERENCED_PARAMETER(p) ((void)(p))

#define S_OK ((HRESULT)0)
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#define FAILED(hr) (((HRESULT)(hr)) < 0)

/* winnt.h's TCHAR names, as with UNICODE defined: TCHAR is WCHAR, TEXT("x") is u"x". */
#define __TEXT(quote) u##quote
#define TEXT(quote) __TEXT(quote)
typedef WCHAR TCHAR, *PTCHAR;
typedef LPWSTR LPTSTR, PTSTR;
typedef LPCWSTR LPCTSTR, PCTSTR;

/* objidl.h's OLE strings (WCHAR here as there). */
typedef WCHAR OLECHAR;
typedef OLECHAR* LPOLESTR;
typedef const OLECHAR* LPCOLESTR;

/* Days from 1601-01-01 (FILETIME's epoch, a Monday) to the civil date *year-*month-*day
 * (proleptic Gregorian; H. Hinnant's civil_from_days, shifted to 1601). */
static inline void pfc_etw_civil_from_days(ULONGLONG days, WORD* year, WORD* month, WORD* day) {
  LONGLONG z = (LONGLONG)days - 134774 + 719468; /* 134774 days 1601-01-01 .. 1970-01-01 */
  LONGLONG era = (z >= 0 ? z : z - 146096) / 146097;
  LONGLONG doe = z - era * 146097;
  LONGLONG yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  LONGLONG doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  LONGLONG mp = (5 * doy + 2) / 153;
  LONGLONG m = mp < 10 ? mp + 3 : mp - 9;
  *year = (WORD)(yoe + era * 400 + (m <= 2));
  *month = (WORD)m;
  *day = (WORD)(doy - (153 * mp + 2) / 5 + 1);
}

/* timezoneapi.h: the UTC calendar time of *file_time (100-ns intervals since 1601-01-01
 * UTC), wDayOfWeek 0 = Sunday. As Windows: FALSE with ERROR_INVALID_PARAMETER for a value
 * of 2^63 or more (also for NULL arguments, where Windows faults). */
static inline BOOL FileTimeToSystemTime(const FILETIME* file_time, LPSYSTEMTIME system_time) {
  if (file_time == NULL || system_time == NULL) { /* NOLINT(modernize-use-nullptr): C as well */
    SetLastError(ERROR_INVALID_PARAMETER);
    return FALSE;
  }
  ULONGLONG t = ((ULONGLONG)file_time->dwHighDateTime << 32) | file_time->dwLowDateTime;
  if (t >> 63) {
    SetLastError(ERROR_INVALID_PARAMETER);
    return FALSE;
  }
  const ULONGLONG per_day = 864000000000ull;
  ULONGLONG days = t / per_day, in_day = t % per_day;
  pfc_etw_civil_from_days(days, &system_time->wYear, &system_time->wMonth, &system_time->wDay);
  system_time->wDayOfWeek = (WORD)((days + 1) % 7);
  system_time->wHour = (WORD)(in_day / 36000000000ull);
  system_time->wMinute = (WORD)(in_day / 600000000ull % 60);
  system_time->wSecond = (WORD)(in_day / 10000000ull % 60);
  system_time->wMilliseconds = (WORD)(in_day / 10000ull % 1000);
  return TRUE;
}

/* combaseapi.h: writes *guid as {XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX} (upper-case hex, 38
 * characters and a 0) to out. Returns the characters written including the 0 (39), or 0
 * (nothing written) if cch_max is smaller. REFGUID is a pointer here, in C++ too. */
static inline int StringFromGUID2(REFGUID guid, LPOLESTR out, int cch_max) {
  static const char digits[] = "0123456789ABCDEF";
  /* NOLINTNEXTLINE(modernize-use-nullptr): C as well */
  if (guid == NULL || out == NULL || cch_max < 39) return 0;
  unsigned char b[16] = {(unsigned char)(guid->Data1 >> 24), (unsigned char)(guid->Data1 >> 16),
                         (unsigned char)(guid->Data1 >> 8),  (unsigned char)guid->Data1,
                         (unsigned char)(guid->Data2 >> 8),  (unsigned char)guid->Data2,
                         (unsigned char)(guid->Data3 >> 8),  (unsigned char)guid->Data3};
  memcpy(b + 8, guid->Data4, 8);
  int n = 0;
  out[n++] = u'{';
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[n++] = u'-';
    out[n++] = (WCHAR)digits[b[i] >> 4];
    out[n++] = (WCHAR)digits[b[i] & 15];
  }
  out[n++] = u'}';
  out[n++] = 0;
  return n;
}

#ifdef __cplusplus
#include "pfc_etw_wprintf.h" /* wprintf(u"...") */
#endif

#endif /* PFC_ETW_WINDOWS_H */
