/* pfc/etw/pfc_etw_types.h — the Windows base types, GUID and winerror.h codes the
 * ETW-compatible C API (evntprov.h, evntrace.h, evntcons.h) is written in, defined with
 * fixed-width types so every struct has its x64 Windows layout under the LP64 ABI.
 * WCHAR is a UTF-16 code unit (char16_t), not wchar_t. Compiles as C11 and C++. */
#ifndef PFC_ETW_TYPES_H
#define PFC_ETW_TYPES_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <uchar.h>
#endif

#ifdef __cplusplus
#define PFC_ETW_EXTERN_C_BEGIN extern "C" {
#define PFC_ETW_EXTERN_C_END }
#else
#define PFC_ETW_EXTERN_C_BEGIN
#define PFC_ETW_EXTERN_C_END
#endif

/* Functions exported by libpfc_etw.so. */
#define PFC_ETW_API __attribute__((visibility("default")))

/* Calling-convention and annotation macros of the SDK headers: nothing on Linux x64. */
#define WINAPI
#define NTAPI
#define WMIAPI
#define EVNTAPI
#define FORCEINLINE static inline

#define ANYSIZE_ARRAY 1
#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif
#define INFINITE 0xFFFFFFFFu

typedef void VOID;
typedef void* PVOID;
typedef void* HANDLE;
typedef uint8_t UCHAR;
typedef uint8_t BYTE;
typedef uint8_t* PBYTE;
typedef uint8_t BOOLEAN;
typedef BOOLEAN* PBOOLEAN;
typedef int32_t BOOL;
typedef uint16_t USHORT;
typedef uint16_t WORD;
typedef uint32_t ULONG;
typedef uint32_t* PULONG;
typedef uint32_t DWORD;
typedef int32_t LONG;
typedef uint64_t ULONGLONG;
typedef uint64_t ULONG64;
typedef uint64_t* PULONG64;
typedef int64_t LONGLONG;
typedef char16_t WCHAR;
typedef WCHAR* LPWSTR;
typedef WCHAR* PWSTR;
typedef const WCHAR* LPCWSTR;
typedef const WCHAR* PCWSTR;
typedef uint64_t TRACEHANDLE;
typedef TRACEHANDLE* PTRACEHANDLE;

typedef union _LARGE_INTEGER {
  struct {
    ULONG LowPart;
    LONG HighPart;
  };
  struct {
    ULONG LowPart;
    LONG HighPart;
  } u;
  LONGLONG QuadPart;
} LARGE_INTEGER, *PLARGE_INTEGER;

/* 100-ns intervals since 1601-01-01 UTC, split into two 32-bit halves. */
typedef struct _FILETIME {
  DWORD dwLowDateTime;
  DWORD dwHighDateTime;
} FILETIME, *PFILETIME, *LPFILETIME;

typedef struct _SYSTEMTIME {
  WORD wYear;
  WORD wMonth;
  WORD wDayOfWeek;
  WORD wDay;
  WORD wHour;
  WORD wMinute;
  WORD wSecond;
  WORD wMilliseconds;
} SYSTEMTIME, *PSYSTEMTIME;

typedef struct _TIME_ZONE_INFORMATION {
  LONG Bias;
  WCHAR StandardName[32];
  SYSTEMTIME StandardDate;
  LONG StandardBias;
  WCHAR DaylightName[32];
  SYSTEMTIME DaylightDate;
  LONG DaylightBias;
} TIME_ZONE_INFORMATION, *PTIME_ZONE_INFORMATION;

#ifndef GUID_DEFINED
#define GUID_DEFINED
typedef struct _GUID {
  ULONG Data1;
  USHORT Data2;
  USHORT Data3;
  UCHAR Data4[8];
} GUID;
#endif
typedef GUID* LPGUID;
typedef const GUID* LPCGUID;
typedef const GUID* REFGUID;

static inline int IsEqualGUID(REFGUID a, REFGUID b) {
  const UCHAR* x = (const UCHAR*)a;
  const UCHAR* y = (const UCHAR*)b;
  for (int i = 0; i < 16; ++i) {
    if (x[i] != y[i]) return 0;
  }
  return 1;
}

/* winerror.h codes returned by the API. */
#define ERROR_SUCCESS 0u
#define ERROR_INVALID_FUNCTION 1u
#define ERROR_FILE_NOT_FOUND 2u
#define ERROR_PATH_NOT_FOUND 3u
#define ERROR_ACCESS_DENIED 5u
#define ERROR_INVALID_HANDLE 6u
#define ERROR_BAD_FORMAT 11u
#define ERROR_NOT_ENOUGH_MEMORY 8u
#define ERROR_INVALID_DATA 13u
#define ERROR_OUTOFMEMORY 14u
#define ERROR_BAD_LENGTH 24u
#define ERROR_NOT_SUPPORTED 50u
#define ERROR_INVALID_PARAMETER 87u
#define ERROR_INSUFFICIENT_BUFFER 122u
#define ERROR_BAD_PATHNAME 161u
#define ERROR_BUSY 170u
#define ERROR_ALREADY_EXISTS 183u
#define ERROR_MORE_DATA 234u
#define ERROR_ARITHMETIC_OVERFLOW 534u
#define ERROR_NOT_FOUND 1168u
#define ERROR_FILE_CORRUPT 1392u
#define ERROR_CANCELLED 1223u
#define ERROR_NO_SYSTEM_RESOURCES 1450u
#define ERROR_TIMEOUT 1460u
#define ERROR_WMI_INSTANCE_NOT_FOUND 4201u
#define ERROR_CTX_CLOSE_PENDING 7007u

PFC_ETW_EXTERN_C_BEGIN

/* The all-zero GUID (SourceId of pre-enable and stop notifications). */
PFC_ETW_API extern const GUID GUID_NULL;

/* The calling thread's last error, set by the functions that return a handle instead of
 * an error code (OpenTraceW). Thread-local; never reset on success. */
PFC_ETW_API DWORD GetLastError(void);
PFC_ETW_API void SetLastError(DWORD error);

PFC_ETW_EXTERN_C_END

#endif /* PFC_ETW_TYPES_H */
