/* pfc/etw/evntprov.h — the provider side of the ETW-compatible C API (EventRegister,
 * EventWrite*, EventEnabled, enable callbacks) with Windows' names, values and x64 struct
 * layouts (Windows SDK evntprov.h; docs/etw.md). Implemented by libpfc_etw.so over
 * the pfc routing core. Every function is thread-safe. */
#ifndef PFC_ETW_EVNTPROV_H
#define PFC_ETW_EVNTPROV_H

#include "pfc_etw_types.h"

#define EVENT_MIN_LEVEL 0
#define EVENT_MAX_LEVEL 0xff

#define EVENT_ACTIVITY_CTRL_GET_ID 1
#define EVENT_ACTIVITY_CTRL_SET_ID 2
#define EVENT_ACTIVITY_CTRL_CREATE_ID 3
#define EVENT_ACTIVITY_CTRL_GET_SET_ID 4
#define EVENT_ACTIVITY_CTRL_CREATE_SET_ID 5

#define MAX_EVENT_DATA_DESCRIPTORS 128
#define MAX_EVENT_FILTER_DATA_SIZE 1024
#define MAX_EVENT_FILTER_PAYLOAD_SIZE 4096
#define MAX_EVENT_FILTER_EVENT_NAME_SIZE 4096
#define MAX_EVENT_FILTERS_COUNT 13
#define MAX_EVENT_FILTER_PID_COUNT 8
#define MAX_EVENT_FILTER_EVENT_ID_COUNT 64

#define EVENT_FILTER_TYPE_NONE (0x00000000)
#define EVENT_FILTER_TYPE_SCHEMATIZED (0x80000000)
#define EVENT_FILTER_TYPE_SYSTEM_FLAGS (0x80000001)
#define EVENT_FILTER_TYPE_TRACEHANDLE (0x80000002)
#define EVENT_FILTER_TYPE_PID (0x80000004)
#define EVENT_FILTER_TYPE_EXECUTABLE_NAME (0x80000008)
#define EVENT_FILTER_TYPE_PACKAGE_ID (0x80000010)
#define EVENT_FILTER_TYPE_PACKAGE_APP_ID (0x80000020)
#define EVENT_FILTER_TYPE_PAYLOAD (0x80000100)
#define EVENT_FILTER_TYPE_EVENT_ID (0x80000200)
#define EVENT_FILTER_TYPE_EVENT_NAME (0x80000400)
#define EVENT_FILTER_TYPE_STACKWALK (0x80001000)
#define EVENT_FILTER_TYPE_STACKWALK_NAME (0x80002000)
#define EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW (0x80004000)
#define EVENT_FILTER_TYPE_CONTAINER (0x80008000)

#define EVENT_DATA_DESCRIPTOR_TYPE_NONE 0
#define EVENT_DATA_DESCRIPTOR_TYPE_EVENT_METADATA 1
#define EVENT_DATA_DESCRIPTOR_TYPE_PROVIDER_METADATA 2
#define EVENT_DATA_DESCRIPTOR_TYPE_TIMESTAMP_OVERRIDE 3
#define EVENT_DATA_DESCRIPTOR_TYPE_RESERVED1 4

#define EVENT_WRITE_FLAG_NO_FAULTING 0x00000001u
#define EVENT_WRITE_FLAG_INPRIVATE 0x00000002u

/* IsEnabled values of PENABLECALLBACK and ControlCode values of EnableTraceEx2. */
#ifndef EVENT_CONTROL_CODE_DISABLE_PROVIDER
#define EVENT_CONTROL_CODE_DISABLE_PROVIDER 0
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER 1
#define EVENT_CONTROL_CODE_CAPTURE_STATE 2
#endif

typedef ULONGLONG REGHANDLE, *PREGHANDLE;

/* One piece of an event's payload; the payload is the concatenation of the pieces. 16 bytes. */
typedef struct _EVENT_DATA_DESCRIPTOR {
  ULONGLONG Ptr; /* @0 */
  ULONG Size;    /* @8 */
  union {        /* @12 */
    ULONG Reserved;
    struct {
      UCHAR Type;
      UCHAR Reserved1;
      USHORT Reserved2;
    };
  };
} EVENT_DATA_DESCRIPTOR, *PEVENT_DATA_DESCRIPTOR;

/* 16 bytes. */
typedef struct _EVENT_DESCRIPTOR {
  USHORT Id;         /* @0 */
  UCHAR Version;     /* @2 */
  UCHAR Channel;     /* @3 */
  UCHAR Level;       /* @4 */
  UCHAR Opcode;      /* @5 */
  USHORT Task;       /* @6 */
  ULONGLONG Keyword; /* @8 */
} EVENT_DESCRIPTOR, *PEVENT_DESCRIPTOR;
typedef const EVENT_DESCRIPTOR* PCEVENT_DESCRIPTOR;

/* 16 bytes. */
typedef struct _EVENT_FILTER_DESCRIPTOR {
  ULONGLONG Ptr; /* @0 */
  ULONG Size;    /* @8 */
  ULONG Type;    /* @12 EVENT_FILTER_TYPE_* */
} EVENT_FILTER_DESCRIPTOR, *PEVENT_FILTER_DESCRIPTOR;

/* Prefix of each session's schematized filter; 24 bytes. InstanceId and NextOffset are
 * filled in for the provider's callback (InstanceId = the session's EventWriteEx bit). */
typedef struct _EVENT_FILTER_HEADER {
  USHORT Id;            /* @0 */
  UCHAR Version;        /* @2 */
  UCHAR Reserved[5];    /* @3 */
  ULONGLONG InstanceId; /* @8 */
  ULONG Size;           /* @16 header + data */
  ULONG NextOffset;     /* @20 offset to the next session's block, 0 = last */
} EVENT_FILTER_HEADER, *PEVENT_FILTER_HEADER;

/* EVENT_FILTER_TYPE_EVENT_ID and _STACKWALK data; Size = 4 + 2 * Count. */
typedef struct _EVENT_FILTER_EVENT_ID {
  BOOLEAN FilterIn;             /* @0 TRUE: only the listed IDs; FALSE: all but the listed IDs */
  UCHAR Reserved;               /* @1 */
  USHORT Count;                 /* @2 */
  USHORT Events[ANYSIZE_ARRAY]; /* @4 */
} EVENT_FILTER_EVENT_ID, *PEVENT_FILTER_EVENT_ID;

/* EVENT_FILTER_TYPE_EVENT_NAME and _STACKWALK_NAME data: NameCount NUL-terminated UTF-8
 * names packed from @20; Size = 20 + sum(strlen + 1). */
typedef struct _EVENT_FILTER_EVENT_NAME {
  ULONGLONG MatchAnyKeyword;  /* @0 */
  ULONGLONG MatchAllKeyword;  /* @8 */
  UCHAR Level;                /* @16 */
  BOOLEAN FilterIn;           /* @17 */
  USHORT NameCount;           /* @18 */
  UCHAR Names[ANYSIZE_ARRAY]; /* @20 */
} EVENT_FILTER_EVENT_NAME, *PEVENT_FILTER_EVENT_NAME;

/* EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW data; 24 bytes. */
typedef struct _EVENT_FILTER_LEVEL_KW {
  ULONGLONG MatchAnyKeyword; /* @0 */
  ULONGLONG MatchAllKeyword; /* @8 */
  UCHAR Level;               /* @16 */
  BOOLEAN FilterIn;          /* @17 */
} EVENT_FILTER_LEVEL_KW, *PEVENT_FILTER_LEVEL_KW;

/* The provider's enable callback. IsEnabled: EVENT_CONTROL_CODE_*. Level / keywords are
 * the composite over the sessions enabling the provider (max level, OR of MatchAny, AND of
 * MatchAll, after normalising level 0 to 255 and MatchAny 0 to all ones); 0 on DISABLE.
 * FilterData (may be NULL) chains one EVENT_FILTER_HEADER block per session that passed a
 * schematized filter; valid only during the call. SourceId is GUID_NULL for notifications
 * at registration time (pre-enable) and when a session stops. Runs on the library's
 * notification thread; it may call EventWrite* but must not block for long. */
typedef VOID(NTAPI* PENABLECALLBACK)(LPCGUID SourceId, ULONG IsEnabled, UCHAR Level,
                                     ULONGLONG MatchAnyKeyword, ULONGLONG MatchAllKeyword,
                                     PEVENT_FILTER_DESCRIPTOR FilterData, PVOID CallbackContext);

/* pfc extension (not in the Windows SDK): the registrations' enable state where the inline
 * EventEnabled / EventProviderEnabled below read it, in the application's address space, as
 * a tracepoint tests a word (docs/etw.md "Enable state"). A REGHANDLE's slot is its low 16
 * bits, (USHORT)RegHandle: live registrations have slots below PFC_ETW_REGISTRATION_SLOTS
 * (the other bits are a generation), and Enabled has a word for every USHORT, so any
 * REGHANDLE reads a word of the table; the words of slots no live registration has are 0.
 * Only the library writes the table, with atomic stores; read it with atomic loads.
 * 524296 bytes, of which a process touches the last page and those of its slots. */
#define PFC_ETW_REGISTRATION_SLOTS 2048
#define PFC_ETW_ENABLED_WORDS 0x10000
typedef struct _PFC_ETW_ENABLE_TABLE {
  /* @0: per slot, nonzero iff a session enables the slot's live modern registration */
  ULONGLONG Enabled[PFC_ETW_ENABLED_WORDS];
  /* @524288: the number of slots whose Enabled is nonzero; 0 iff no session enables any
   * registration of this process. Raised before a slot's word turns nonzero, lowered
   * after it turns 0. */
  ULONGLONG EnabledSlots;
} PFC_ETW_ENABLE_TABLE;

PFC_ETW_EXTERN_C_BEGIN

/* This process's table (never NULL). */
PFC_ETW_API extern const PFC_ETW_ENABLE_TABLE* const PfcEtwEnableTable;

/* Registers a provider. If sessions enabled ProviderId before, EnableCallback runs (with
 * SourceId GUID_NULL) before EventRegister returns. Errors: ERROR_INVALID_PARAMETER
 * (NULL ProviderId or RegHandle), ERROR_NOT_ENOUGH_MEMORY (2048 registrations). */
PFC_ETW_API ULONG EVNTAPI EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback,
                                        PVOID CallbackContext, PREGHANDLE RegHandle);
/* After it returns the callback is never called again. ERROR_INVALID_HANDLE if unknown. */
PFC_ETW_API ULONG EVNTAPI EventUnregister(REGHANDLE RegHandle);

/* FALSE when no session would take an event of this level/keyword (conservative). Calls
 * are inline macros (below) that return FALSE from the handle's slot while no session
 * enables it, and call these functions only otherwise; `(EventEnabled)(...)` and
 * `&EventEnabled` name the functions themselves. */
PFC_ETW_API BOOLEAN EVNTAPI EventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor);
PFC_ETW_API BOOLEAN EVNTAPI EventProviderEnabled(REGHANDLE RegHandle, UCHAR Level,
                                                 ULONGLONG Keyword);

/* Writes an event: payload = concatenation of UserData[0..UserDataCount). Errors:
 * ERROR_INVALID_HANDLE, ERROR_INVALID_PARAMETER (NULL descriptor, more than
 * MAX_EVENT_DATA_DESCRIPTORS, NULL data with a size), ERROR_ARITHMETIC_OVERFLOW (payload
 * larger than 64 KB minus the header). No session interested → ERROR_SUCCESS. */
PFC_ETW_API ULONG EVNTAPI EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                                     ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData);
/* ActivityId NULL = the thread's activity ID; RelatedActivityId NULL = none. */
PFC_ETW_API ULONG EVNTAPI EventWriteTransfer(REGHANDLE RegHandle,
                                             PCEVENT_DESCRIPTOR EventDescriptor, LPCGUID ActivityId,
                                             LPCGUID RelatedActivityId, ULONG UserDataCount,
                                             PEVENT_DATA_DESCRIPTOR UserData);
/* Filter: OR of the InstanceIds of sessions that must not receive the event. Flags:
 * EVENT_WRITE_FLAG_INPRIVATE drops the event on sessions with EXCLUDE_INPRIVATE. */
PFC_ETW_API ULONG EVNTAPI EventWriteEx(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                                       ULONG64 Filter, ULONG Flags, LPCGUID ActivityId,
                                       LPCGUID RelatedActivityId, ULONG UserDataCount,
                                       PEVENT_DATA_DESCRIPTOR UserData);
/* An event with descriptor {0, level, keyword} whose payload is the NUL-terminated UTF-16
 * String (EVENT_HEADER_FLAG_STRING_ONLY). */
PFC_ETW_API ULONG EVNTAPI EventWriteString(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword,
                                           PCWSTR String);
/* The calling thread's activity ID (EVENT_ACTIVITY_CTRL_*). */
PFC_ETW_API ULONG EVNTAPI EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId);

/* What EventSetInformation configures on a registration (docs/etw.md "Provider traits"). */
typedef enum _EVENT_INFO_CLASS PFC_ETW_ENUM_INT {
  EventProviderBinaryTrackInfo,   /* ERROR_NOT_SUPPORTED: no decoding resources in binaries */
  EventProviderSetReserved1,      /* ERROR_NOT_SUPPORTED (not used) */
  EventProviderSetTraits,         /* the traits blob: UINT16 size, UTF-8 name, traits */
  EventProviderUseDescriptorType, /* a BOOLEAN: whether data descriptors' Type counts */
  MaxEventInfo
} EVENT_INFO_CLASS;

/* Configures the registration RegHandle (of EventRegister). EventProviderSetTraits, once
 * per registration: every later event of it carries the traits as its
 * EVENT_HEADER_EXT_TYPE_PROV_TRAITS item, and its descriptors' Type is read.
 * EventProviderUseDescriptorType: a descriptor's Type (EVENT_DATA_DESCRIPTOR_TYPE_*) is
 * ignored (read as 0) unless TRUE was set or traits were. Errors: ERROR_NOT_SUPPORTED (a
 * class other than those two), ERROR_INVALID_PARAMETER (a handle that is not a live
 * EventRegister handle, NULL EventInformation with a nonzero length, a length or blob the
 * class refuses), ERROR_ALREADY_EXISTS (traits set before). */
PFC_ETW_API ULONG EVNTAPI EventSetInformation(REGHANDLE RegHandle,
                                              EVENT_INFO_CLASS InformationClass,
                                              PVOID EventInformation, ULONG InformationLength);

PFC_ETW_EXTERN_C_END

/* Whether the table word *Word is nonzero: one relaxed load. On x86-64 a compare with the
 * word in memory (an aligned 8-byte load is atomic there), which compilers do not fold
 * an atomic load into. */
FORCEINLINE BOOLEAN PfcEtwWordSet(const ULONGLONG* Word) {
#if defined(__x86_64__) && defined(__GCC_ASM_FLAG_OUTPUTS__)
  BOOLEAN set;
  __asm__ __volatile__("cmpq $0, %1" : "=@ccne"(set) : "m"(*Word));
  return set;
#else
  return __atomic_load_n(Word, __ATOMIC_RELAXED) != 0;
#endif
}

/* Whether a session enables any registration of this process. (void): a C prototype. */
FORCEINLINE BOOLEAN PfcEtwAnyEnabled(void) { /* NOLINT(modernize-redundant-void-arg) */
  return __builtin_expect(PfcEtwWordSet(&PfcEtwEnableTable->EnabledSlots), 0);
}

/* Whether a session enables the registration in RegHandle's slot. */
FORCEINLINE BOOLEAN PfcEtwSlotEnabled(REGHANDLE RegHandle) {
  return PfcEtwWordSet(&PfcEtwEnableTable->Enabled[(USHORT)RegHandle]);
}

FORCEINLINE BOOLEAN PfcEtwEventEnabled(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor) {
  if (!PfcEtwSlotEnabled(RegHandle)) return FALSE;
  return (EventEnabled)(RegHandle, EventDescriptor);
}

FORCEINLINE BOOLEAN PfcEtwEventProviderEnabled(REGHANDLE RegHandle, UCHAR Level,
                                               ULONGLONG Keyword) {
  if (!PfcEtwSlotEnabled(RegHandle)) return FALSE;
  return (EventProviderEnabled)(RegHandle, Level, Keyword);
}

/* Each argument is evaluated exactly once. While no session enables a registration of the
 * process they are evaluated for their side effects only: the handle is not even loaded
 * (a compare of EnabledSlots and a branch). */
#define EventEnabled(RegHandle, EventDescriptor)                                 \
  ((BOOLEAN)(PfcEtwAnyEnabled() ? PfcEtwEventEnabled(RegHandle, EventDescriptor) \
                                : ((void)(RegHandle), (void)(EventDescriptor), FALSE)))
#define EventProviderEnabled(RegHandle, Level, Keyword)                                 \
  ((BOOLEAN)(PfcEtwAnyEnabled() ? PfcEtwEventProviderEnabled(RegHandle, Level, Keyword) \
                                : ((void)(RegHandle), (void)(Level), (void)(Keyword), FALSE)))

FORCEINLINE VOID EventDescCreate(PEVENT_DESCRIPTOR EventDescriptor, USHORT Id, UCHAR Version,
                                 UCHAR Channel, UCHAR Level, USHORT Task, UCHAR Opcode,
                                 ULONGLONG Keyword) {
  EventDescriptor->Id = Id;
  EventDescriptor->Version = Version;
  EventDescriptor->Channel = Channel;
  EventDescriptor->Level = Level;
  EventDescriptor->Task = Task;
  EventDescriptor->Opcode = Opcode;
  EventDescriptor->Keyword = Keyword;
}

FORCEINLINE VOID EventDescZero(PEVENT_DESCRIPTOR EventDescriptor) {
  EventDescCreate(EventDescriptor, 0, 0, 0, 0, 0, 0, 0);
}

FORCEINLINE VOID EventDataDescCreate(PEVENT_DATA_DESCRIPTOR EventDataDescriptor,
                                     const VOID* DataPtr, ULONG DataSize) {
  EventDataDescriptor->Ptr = (ULONGLONG)(uintptr_t)DataPtr;
  EventDataDescriptor->Size = DataSize;
  EventDataDescriptor->Reserved = 0;
}

#endif /* PFC_ETW_EVNTPROV_H */
