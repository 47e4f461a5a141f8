/* pfc/etw/tchar.h — the SDK's tchar.h generic-text names as with _UNICODE defined: _TCHAR
 * is WCHAR (UTF-16, char16_t), _T("x") is u"x", _tcslen is pfc_wcslen. There is no _tmain
 * or wmain entry point: convert argv with pfc_wide_argv (docs/porting.md "WCHAR strings").
 * Compiles as C11 and C++. */
#ifndef PFC_ETW_TCHAR_H
#define PFC_ETW_TCHAR_H

#include "windows.h"

typedef WCHAR _TCHAR;
typedef WCHAR _TSCHAR;
typedef WCHAR _TUCHAR;
#define _T(quote) u##quote
#define _TEXT(quote) u##quote
#define _tcslen pfc_wcslen

#endif /* PFC_ETW_TCHAR_H */
