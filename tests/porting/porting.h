/* tests/porting/porting.h — what the two translation units of the porting test share,
 * written as Windows sources write it (mc output, the SDK samples): compiled as C11 and as
 * C++ with the flags `pkg-config --cflags pfc-etw` gives (docs/porting.md). */
#ifndef PFC_TESTS_PORTING_H
#define PFC_TESTS_PORTING_H

#pragma warning(push)
#pragma warning(disable : 4201)
#include <evntrace.h>
#include <strsafe.h>
#include <tchar.h>
#include <tdh.h>
#include <windows.h>
#include <wmistr.h>
#pragma warning(pop)

/* Sources written for mingw-w64's headers define the SDK names those lack, copied from the
 * SDK (with its spacing): the same token sequence as the ETW headers' definition, so no
 * redefinition warning (warnings are errors here). */
// clang-format off
#define EVENT_FILTER_TYPE_PID               (0x80000004)
#define EVENT_FILTER_TYPE_EVENT_ID          (0x80000200) // Event IDs.
#define ANYSIZE_ARRAY 1
// clang-format on

/* Selectany objects, uninitialised and initialised, as mc writes them (EXTERN_C first)
 * and as hand-written code does (DECLSPEC_SELECTANY alone). Both translation units define
 * them; the program must have one of each. */
EXTERN_C __declspec(selectany) REGHANDLE Porting_Handle;
EXTERN_C __declspec(selectany) DECLSPEC_CACHEALIGN ULONG Porting_EnableBits[1];
DECLSPEC_SELECTANY ULONG Porting_Plain[4];
EXTERN_C __declspec(selectany) ULONGLONG Porting_Counter = 41;
EXTERN_C __declspec(selectany) const GUID Porting_Guid = {
    0x6B0D5E3C, 0x8F1A, 0x4B6E, {0x9C, 0x2D, 0x3A, 0x4F, 0x5B, 0x6C, 0x7D, 0x8F}};
EXTERN_C __declspec(selectany) const UCHAR Porting_Levels[4] = {5, 4, 3, 2};

/* A function in the header of both units, as mc's McGen* helpers are. */
DECLSPEC_NOINLINE __inline ULONG __stdcall Porting_Twice(_In_ ULONG value) { return 2 * value; }

EXTERN_C_START

/* The second unit's view of the selectany objects. */
typedef struct {
  REGHANDLE* handle;
  ULONG* enable_bits;
  ULONG* plain;
  ULONGLONG* counter;
  const GUID* guid;
  const UCHAR* levels;
  ULONG twice_21;
} PortingAddresses;

/* SAL and calling-convention macros in declarations (defined in the second unit). */
_Success_(return != 0) _Must_inspect_result_ BOOL WINAPI
    Porting_Fill(_Out_writes_(cch) PWSTR out, _In_ size_t cch, _In_opt_ PCWSTR text);
_Ret_maybenull_ PortingAddresses* __cdecl Porting_Addresses(_Inout_ PortingAddresses* out);
VOID CALLBACK Porting_Sum(_In_reads_bytes_(size) const void* data, _In_ ULONG size,
                          _Out_ ULONG* sum, _Inout_opt_ PVOID context);
#ifndef __cplusplus
ULONG NTAPI Porting_Legacy(__in ULONG a, __out ULONG* b, __in_ecount(n) const ULONG* v,
                           __in ULONG n, __out_opt PULONG c);
#endif

EXTERN_C_END

#endif /* PFC_TESTS_PORTING_H */
