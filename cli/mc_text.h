// cli/mc_text.h — the fixed parts of the header `pfc mc` writes (cli/mc_header.h): mc.exe's
// trace context, enable checks, enable callback (McGenControlCallbackV2, which keeps a
// provider's enable bits) and register/unregister helpers, each guarded as mc guards it so
// several generated headers can be included together. C89-compatible text compiled by the
// provider against pfc's ETW headers (include/pfc/etw/, docs/porting.md).
#pragma once

#include <string_view>

namespace pfc::cli {

inline constexpr std::string_view kMcIncludes = R"(#pragma once
#include <wmistr.h>
#include <evntrace.h>
#include "evntprov.h"
//
//  Initial Defs
//
#if !defined(ETW_INLINE)
#define ETW_INLINE DECLSPEC_NOINLINE __inline
#endif

#if defined(__cplusplus)
extern "C" {
#endif

)";

inline constexpr std::string_view kMcContext = R"(//
// Allow disabling of code generation
//
#ifndef MCGEN_DISABLE_PROVIDER_CODE_GENERATION
#if  !defined(McGenDebug)
#define McGenDebug(a,b)
#endif


#if !defined(MCGEN_TRACE_CONTEXT_DEF)
#define MCGEN_TRACE_CONTEXT_DEF
typedef struct _MCGEN_TRACE_CONTEXT
{
    TRACEHANDLE            RegistrationHandle;
    TRACEHANDLE            Logger;
    ULONGLONG              MatchAnyKeyword;
    ULONGLONG              MatchAllKeyword;
    ULONG                  Flags;
    ULONG                  IsEnabled;
    UCHAR                  Level;
    UCHAR                  Reserve;
    USHORT                 EnableBitsCount;
    PULONG                 EnableBitMask;
    const ULONGLONG*       EnableKeyWords;
    const UCHAR*           EnableLevel;
} MCGEN_TRACE_CONTEXT, *PMCGEN_TRACE_CONTEXT;
#endif

#if !defined(MCGEN_LEVEL_KEYWORD_ENABLED_DEF)
#define MCGEN_LEVEL_KEYWORD_ENABLED_DEF
FORCEINLINE
BOOLEAN
McGenLevelKeywordEnabled(
    _In_ PMCGEN_TRACE_CONTEXT EnableInfo,
    _In_ UCHAR Level,
    _In_ ULONGLONG Keyword
    )
{
    //
    // Enabled when the level is at most the session's (0 on either side: any level) and
    // the keyword is 0 or matches any of MatchAnyKeyword and all of MatchAllKeyword.
    //
    if ((Level <= EnableInfo->Level) || (EnableInfo->Level == 0)) {
        if ((Keyword == (ULONGLONG)0) ||
            ((Keyword & EnableInfo->MatchAnyKeyword) &&
             ((Keyword & EnableInfo->MatchAllKeyword) == EnableInfo->MatchAllKeyword))) {
            return TRUE;
        }
    }
    return FALSE;
}
#endif

#if !defined(MCGEN_EVENT_ENABLED_DEF)
#define MCGEN_EVENT_ENABLED_DEF
FORCEINLINE
BOOLEAN
McGenEventEnabled(
    _In_ PMCGEN_TRACE_CONTEXT EnableInfo,
    _In_ PCEVENT_DESCRIPTOR EventDescriptor
    )
{
    return McGenLevelKeywordEnabled(EnableInfo, EventDescriptor->Level, EventDescriptor->Keyword);
}
#endif


//
// EnableCheckMacro
//
#ifndef MCGEN_ENABLE_CHECK
#define MCGEN_ENABLE_CHECK(Context, Descriptor) (Context.IsEnabled &&  McGenEventEnabled(&Context, &Descriptor))
#endif

#if !defined(MCGEN_CONTROL_CALLBACK)
#define MCGEN_CONTROL_CALLBACK

DECLSPEC_NOINLINE __inline
VOID
__stdcall
McGenControlCallbackV2(
    _In_ LPCGUID SourceId,
    _In_ ULONG ControlCode,
    _In_ UCHAR Level,
    _In_ ULONGLONG MatchAnyKeyword,
    _In_ ULONGLONG MatchAllKeyword,
    _In_opt_ PEVENT_FILTER_DESCRIPTOR FilterData,
    _Inout_opt_ PVOID CallbackContext
    )
/*++

Routine Description:

    The enable callback: ETW calls it when a session enables or disables the provider.
    It records the session's level and keywords in the provider's MCGEN_TRACE_CONTEXT
    (CallbackContext) and sets or clears each event's enable bit.

--*/
{
    PMCGEN_TRACE_CONTEXT Ctx = (PMCGEN_TRACE_CONTEXT)CallbackContext;
    ULONG Bit;
#ifndef MCGEN_PRIVATE_ENABLE_CALLBACK_V2
    UNREFERENCED_PARAMETER(SourceId);
    UNREFERENCED_PARAMETER(FilterData);
#endif

    if (Ctx == NULL) {
        return;
    }
    if (ControlCode == EVENT_CONTROL_CODE_ENABLE_PROVIDER) {
        Ctx->Level = Level;
        Ctx->MatchAnyKeyword = MatchAnyKeyword;
        Ctx->MatchAllKeyword = MatchAllKeyword;
        Ctx->IsEnabled = EVENT_CONTROL_CODE_ENABLE_PROVIDER;
        // Bit i of the mask: event i passes the session's level and keywords.
        for (Bit = 0; Bit < Ctx->EnableBitsCount; ++Bit) {
            const ULONG Mask = (ULONG)1 << (Bit % 32);
            if (McGenLevelKeywordEnabled(Ctx, Ctx->EnableLevel[Bit], Ctx->EnableKeyWords[Bit])) {
                Ctx->EnableBitMask[Bit / 32] |= Mask;
            } else {
                Ctx->EnableBitMask[Bit / 32] &= ~Mask;
            }
        }
    } else if (ControlCode == EVENT_CONTROL_CODE_DISABLE_PROVIDER) {
        Ctx->IsEnabled = EVENT_CONTROL_CODE_DISABLE_PROVIDER;
        Ctx->Level = 0;
        Ctx->MatchAnyKeyword = 0;
        Ctx->MatchAllKeyword = 0;
        // Every event's bit off: one ULONG per 32 events.
        for (Bit = 0; Bit < Ctx->EnableBitsCount; Bit += 32) {
            Ctx->EnableBitMask[Bit / 32] = 0;
        }
    }

#ifdef MCGEN_PRIVATE_ENABLE_CALLBACK_V2
    // The provider's own callback, after the enable bits are up to date.
    MCGEN_PRIVATE_ENABLE_CALLBACK_V2(SourceId, ControlCode, Level, MatchAnyKeyword,
                                     MatchAllKeyword, FilterData, CallbackContext);
#endif
}

#endif
#endif // MCGEN_DISABLE_PROVIDER_CODE_GENERATION
)";

inline constexpr std::string_view kMcNote = R"(
//
// Note on the generated code
//
//Structures: not supported (pfc mc reports a template holding one).
//
//Arrays and lengths: a count or length taken from another field is that field's argument;
//the array or binary argument points to that many elements (bytes for a binary).
//

)";

inline constexpr std::string_view kMcRegister = R"(#if !defined(McGenEventRegisterUnregister)
#define McGenEventRegisterUnregister
DECLSPEC_NOINLINE __inline
ULONG __stdcall
McGenEventRegister(
    _In_ LPCGUID ProviderId,
    _In_opt_ PENABLECALLBACK EnableCallback,
    _In_opt_ PVOID CallbackContext,
    _Inout_ PREGHANDLE RegHandle
    )
/*++

Routine Description:

    Registers the provider with ETW; ERROR_SUCCESS without a call when *RegHandle is
    already a registration.

--*/
{
    if (*RegHandle != (REGHANDLE)0) {
        return ERROR_SUCCESS;
    }
    return EventRegister(ProviderId, EnableCallback, CallbackContext, RegHandle);
}


DECLSPEC_NOINLINE __inline
ULONG __stdcall
McGenEventUnregister(_Inout_ PREGHANDLE RegHandle)
/*++

Routine Description:

    Unregisters the provider and clears *RegHandle; ERROR_SUCCESS without a call when it
    was not registered.

--*/
{
    ULONG Result = ERROR_SUCCESS;

    if (*RegHandle != (REGHANDLE)0) {
        Result = EventUnregister(*RegHandle);
        *RegHandle = (REGHANDLE)0;
    }
    return Result;
}
#endif
)";

inline constexpr std::string_view kMcNoTemplate = R"(#ifndef TemplateEventDescriptor_def
#define TemplateEventDescriptor_def
ETW_INLINE
ULONG
TemplateEventDescriptor(
    _In_ REGHANDLE RegHandle,
    _In_ PCEVENT_DESCRIPTOR Descriptor
    )
{
    return EventWrite(RegHandle, Descriptor, 0, NULL);
}
#endif

)";

inline constexpr std::string_view kMcEnd = R"(#endif // MCGEN_DISABLE_PROVIDER_CODE_GENERATION

#if defined(__cplusplus)
};
#endif
)";

}  // namespace pfc::cli
