/* pfc/etw/windows.h — the part of the SDK's windows.h an ETW provider or controller uses:
 * the base types (pfc_etw_types.h) and the memory macros of winbase.h. With
 * -I<prefix>/include/pfc/etw, `#include <windows.h>` finds this file (docs/porting.md).
 * Compiles as C11 and C++. */
#ifndef PFC_ETW_WINDOWS_H
#define PFC_ETW_WINDOWS_H

#include <string.h>

#include "pfc_etw_types.h"

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

#endif /* PFC_ETW_WINDOWS_H */
