/* pfc/etw/pfc_etw_types.h — the Windows base types, GUID and winerror.h codes the
 * ETW-compatible C API (evntprov.h, evntrace.h, evntcons.h) is written in, defined with
 * fixed-width types so every struct has its x64 Windows layout under the LP64 ABI.
 * WCHAR is a UTF-16 code unit (char16_t), not wchar_t. Compiles as C11 and C++. */
#ifndef PFC_ETW_TYPES_H
#define PFC_ETW_TYPES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
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
/* FORCEINLINE (winnt.h's __forceinline): in C++ an inline function with external linkage,
 * as on Windows (so it also serves member functions); in C `static inline`. */
#ifdef __cplusplus
#define FORCEINLINE inline
#else
#define FORCEINLINE static inline
#endif
#define __stdcall
#define __cdecl
/* The C API's enums (EVENT_INFO_CLASS, TRACE_QUERY_INFO_CLASS, the TDH enums, ...) have int
 * as their underlying type in C++, as with MSVC: a caller may pass any value (an unknown
 * class gets the documented error), and in C++ an enum without a fixed underlying type
 * cannot hold a value beyond its enumerators' bits. A C enum holds any int. */
#ifdef __cplusplus
#define PFC_ETW_ENUM_INT : int
#else
#define PFC_ETW_ENUM_INT
#endif
#define UNALIGNED /* x64: unaligned access needs no qualifier */
#define __unaligned
#define __fastcall
#define CALLBACK
#define APIENTRY
#define WINAPIV

/* winnt.h's EXTERN_C: C linkage in C++, `extern` in C. */
#ifdef __cplusplus
#define EXTERN_C extern "C"
#define EXTERN_C_START extern "C" {
#define EXTERN_C_END }
#else
#define EXTERN_C extern
#define EXTERN_C_START
#define EXTERN_C_END
#endif

/* DECLSPEC_SELECTANY / __declspec(selectany), as MSVC means it: the object is defined (zero-
 * initialised when it has no initialiser) in every translation unit that declares it so,
 * and the program has one of it. mc output writes `EXTERN_C __declspec(selectany) T x;`,
 * which by the language is an extern declaration; so the macro first ends the declaration
 * the `extern` / `extern "C"` before it began (with the prototype of a function nobody
 * defines, a distinct name per use) and then starts the definition: in C++17 an inline
 * variable, otherwise a weak one (in C a tentative definition, which is a zero-filled
 * definition under -fno-common and -fcommon alike). Put it before the type, as mc does;
 * after the type (`const GUID DECLSPEC_SELECTANY g = ...`) is a compile error. In C++ the
 * object has C++ linkage, which for a name in the global namespace is the same symbol;
 * under an `extern "C" {` block (as mc output is) it keeps C linkage. docs/porting.md. */
#define PFC_ETW_CAT_(a, b) a##b
#define PFC_ETW_CAT(a, b) PFC_ETW_CAT_(a, b)
#if defined(__cplusplus) && __cplusplus >= 201703L
#define PFC_ETW_SELECTANY_DEFINITION inline
#else
#define PFC_ETW_SELECTANY_DEFINITION __attribute__((weak))
#endif
#define DECLSPEC_SELECTANY                                             \
  void PFC_ETW_CAT(pfc_etw_selectany_declaration_, __COUNTER__)(void); \
  PFC_ETW_SELECTANY_DEFINITION

/* winnt.h's other DECLSPEC_* macros. In C, DECLSPEC_NOINLINE is `static`: mc writes
 * `DECLSPEC_NOINLINE __inline` functions into a header included by several translation
 * units, which MSVC links once; GCC's C99 `inline` without `static` emits no out-of-line
 * copy (undefined references) and an inline function cannot be weak, so each translation
 * unit gets its own copy (GCC warns about noinline on an inline function, so the hint is
 * dropped; `static DECLSPEC_NOINLINE` is a duplicate `static`: write
 * `__attribute__((noinline))`). In C++ `__inline` is `inline`, linked once as on Windows. */
#define DECLSPEC_ALIGN(n) __attribute__((__aligned__(n)))
#define DECLSPEC_CACHEALIGN DECLSPEC_ALIGN(64) /* SYSTEM_CACHE_ALIGNMENT_SIZE on x64 */
#define DECLSPEC_NORETURN __attribute__((__noreturn__))
#define DECLSPEC_NOTHROW __attribute__((__nothrow__))
#define DECLSPEC_NOVTABLE
#define DECLSPEC_IMPORT
#define DECLSPEC_EXPORT __attribute__((__visibility__("default")))
#ifdef __cplusplus
#define DECLSPEC_NOINLINE __attribute__((__noinline__))
#else
#define DECLSPEC_NOINLINE static
#endif

/* __declspec(x) for the x above: __declspec(selectany), __declspec(align(16)), ... Any
 * other x is a compile error naming PFC_ETW_DECLSPEC_x. */
#define __declspec(x) PFC_ETW_DECLSPEC_##x
#define PFC_ETW_DECLSPEC_selectany DECLSPEC_SELECTANY
#define PFC_ETW_DECLSPEC_noinline DECLSPEC_NOINLINE
#define PFC_ETW_DECLSPEC_align(n) DECLSPEC_ALIGN(n)
#define PFC_ETW_DECLSPEC_noreturn DECLSPEC_NORETURN
#define PFC_ETW_DECLSPEC_nothrow DECLSPEC_NOTHROW
#define PFC_ETW_DECLSPEC_novtable DECLSPEC_NOVTABLE
#define PFC_ETW_DECLSPEC_dllimport DECLSPEC_IMPORT
#define PFC_ETW_DECLSPEC_dllexport DECLSPEC_EXPORT
#define PFC_ETW_DECLSPEC_thread __thread

#include "sal.h"

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

/* The other base types and pointer aliases of windef.h / winnt.h / basetsd.h a provider or
 * controller ported from Windows uses (docs/porting.md). LONG and ULONG are 32 bits, as on
 * Windows (not C's long); CHAR strings are bytes (UTF-8 here, the ANSI code page there). */
typedef char CHAR;
typedef CHAR* PCHAR;
typedef CHAR* LPCH;
typedef CHAR* PSTR;
typedef CHAR* LPSTR;
typedef const CHAR* PCSTR;
typedef const CHAR* LPCSTR;
typedef const CHAR* LPCCH;
typedef WCHAR* PWCHAR;
typedef WCHAR* LPWCH;
typedef const WCHAR* LPCWCH;
typedef const WCHAR* PCWCH;
typedef void* LPVOID;
typedef const void* LPCVOID;
typedef const void* PCVOID;
typedef HANDLE* PHANDLE;
typedef HANDLE* LPHANDLE;
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef int64_t LONG64;
typedef uint32_t DWORD32;
typedef uint64_t DWORD64;
typedef uint64_t DWORDLONG;
typedef int16_t SHORT;
typedef int32_t INT;
typedef uint32_t UINT;
typedef float FLOAT;
typedef double DOUBLE;
typedef UCHAR* PUCHAR;
typedef BYTE* LPBYTE;
typedef SHORT* PSHORT;
typedef USHORT* PUSHORT;
typedef WORD* PWORD;
typedef WORD* LPWORD;
typedef INT* PINT;
typedef INT* LPINT;
typedef UINT* PUINT;
typedef LONG* PLONG;
typedef LONG* LPLONG;
typedef DWORD* PDWORD;
typedef DWORD* LPDWORD;
typedef BOOL* PBOOL;
typedef BOOL* LPBOOL;
typedef LONGLONG* PLONGLONG;
typedef ULONGLONG* PULONGLONG;
typedef INT64* PINT64;
typedef UINT64* PUINT64;
typedef LONG64* PLONG64;
typedef DWORD64* PDWORD64;
typedef FLOAT* PFLOAT;
typedef intptr_t INT_PTR;
typedef uintptr_t UINT_PTR;
typedef intptr_t LONG_PTR;
typedef uintptr_t ULONG_PTR;
typedef uintptr_t DWORD_PTR;
typedef ULONG_PTR SIZE_T;
typedef LONG_PTR SSIZE_T;
typedef SIZE_T* PSIZE_T;
typedef ULONG_PTR* PULONG_PTR;
typedef LONG HRESULT;
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
} SYSTEMTIME, *PSYSTEMTIME, *LPSYSTEMTIME;

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

/* DEFINE_GUID(name, l, w1, w2, b1, ..., b8) as in guiddef.h: declares `name` (extern
 * const GUID); after #include "initguid.h" (or with INITGUID defined before this header)
 * it defines it, as a weak symbol so a header of DEFINE_GUIDs may define them in several
 * translation units (selectany). */
#ifdef __cplusplus
#define PFC_ETW_EXTERN_C extern "C"
#define PFC_ETW_DEFINE_LINKAGE extern "C" /* a definition: it has an initializer */
#else
#define PFC_ETW_EXTERN_C extern
#define PFC_ETW_DEFINE_LINKAGE /* const objects at file scope are external in C */
#endif
#define PFC_ETW_DEFINE_GUID_VALUE(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
  PFC_ETW_DEFINE_LINKAGE const GUID __attribute__((weak))                          \
  name = {l, w1, w2, {b1, b2, b3, b4, b5, b6, b7, b8}} /* NOLINT(bugprone-macro-parentheses) */
#define PFC_ETW_DECLARE_GUID(name, l, w1, w2, b1, b2, b3, b4, b5, b6, b7, b8) \
  PFC_ETW_EXTERN_C const GUID name
#ifndef DEFINE_GUID
#ifdef INITGUID
#define DEFINE_GUID PFC_ETW_DEFINE_GUID_VALUE
#else
#define DEFINE_GUID PFC_ETW_DECLARE_GUID
#endif
#endif

/* 1 if the 16 bytes of *a and *b are equal, as guiddef.h's memcmp. */
static inline int IsEqualGUID(REFGUID a, REFGUID b) { return memcmp(a, b, sizeof(GUID)) == 0; }

#ifdef __cplusplus
/* guiddef.h's C++ comparisons. */
inline bool operator==(const GUID& a, const GUID& b) { return IsEqualGUID(&a, &b) != 0; }
inline bool operator!=(const GUID& a, const GUID& b) { return !(a == b); }
#endif

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
#define ERROR_DISK_FULL 112u
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
#define ERROR_INTERNAL_ERROR 1359u
#define ERROR_NO_SYSTEM_RESOURCES 1450u
#define ERROR_TIMEOUT 1460u
#define ERROR_WMI_GUID_NOT_FOUND 4200u
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
