/* pfc/etw/evntcons.h — what a consumer receives: EVENT_HEADER, EVENT_RECORD, extended
 * data items and the EVENT_ENABLE_PROPERTY_* flags, with Windows' names, values and x64
 * layouts (Windows SDK evntcons.h; docs/etw.md "Types and layouts"). */
#ifndef PFC_ETW_EVNTCONS_H
#define PFC_ETW_EVNTCONS_H

#include "evntprov.h"
#include "evntrace.h"

#define EVENT_HEADER_EXT_TYPE_RELATED_ACTIVITYID 0x0001
#define EVENT_HEADER_EXT_TYPE_SID 0x0002
#define EVENT_HEADER_EXT_TYPE_TS_ID 0x0003
#define EVENT_HEADER_EXT_TYPE_INSTANCE_INFO 0x0004
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE32 0x0005
#define EVENT_HEADER_EXT_TYPE_STACK_TRACE64 0x0006
#define EVENT_HEADER_EXT_TYPE_PEBS_INDEX 0x0007
#define EVENT_HEADER_EXT_TYPE_PMC_COUNTERS 0x0008
#define EVENT_HEADER_EXT_TYPE_PSM_KEY 0x0009
#define EVENT_HEADER_EXT_TYPE_EVENT_KEY 0x000A
#define EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL 0x000B
#define EVENT_HEADER_EXT_TYPE_PROV_TRAITS 0x000C
#define EVENT_HEADER_EXT_TYPE_PROCESS_START_KEY 0x000D
#define EVENT_HEADER_EXT_TYPE_CONTROL_GUID 0x000E
#define EVENT_HEADER_EXT_TYPE_QPC_DELTA 0x000F
#define EVENT_HEADER_EXT_TYPE_CONTAINER_ID 0x0010
#define EVENT_HEADER_EXT_TYPE_STACK_KEY32 0x0011
#define EVENT_HEADER_EXT_TYPE_STACK_KEY64 0x0012
#define EVENT_HEADER_EXT_TYPE_MAX 0x0013

#define EVENT_HEADER_PROPERTY_XML 0x0001
#define EVENT_HEADER_PROPERTY_FORWARDED_XML 0x0002
#define EVENT_HEADER_PROPERTY_LEGACY_EVENTLOG 0x0004
#define EVENT_HEADER_PROPERTY_RELOGGABLE 0x0008

#define EVENT_HEADER_FLAG_EXTENDED_INFO 0x0001
#define EVENT_HEADER_FLAG_PRIVATE_SESSION 0x0002
#define EVENT_HEADER_FLAG_STRING_ONLY 0x0004
#define EVENT_HEADER_FLAG_TRACE_MESSAGE 0x0008
#define EVENT_HEADER_FLAG_NO_CPUTIME 0x0010
#define EVENT_HEADER_FLAG_32_BIT_HEADER 0x0020
#define EVENT_HEADER_FLAG_64_BIT_HEADER 0x0040
#define EVENT_HEADER_FLAG_DECODE_GUID 0x0080
#define EVENT_HEADER_FLAG_CLASSIC_HEADER 0x0100
#define EVENT_HEADER_FLAG_PROCESSOR_INDEX 0x0200

#define EVENT_ENABLE_PROPERTY_SID 0x00000001u
#define EVENT_ENABLE_PROPERTY_TS_ID 0x00000002u
#define EVENT_ENABLE_PROPERTY_STACK_TRACE 0x00000004u
#define EVENT_ENABLE_PROPERTY_PSM_KEY 0x00000008u
#define EVENT_ENABLE_PROPERTY_IGNORE_KEYWORD_0 0x00000010u
#define EVENT_ENABLE_PROPERTY_PROVIDER_GROUP 0x00000020u
#define EVENT_ENABLE_PROPERTY_ENABLE_KEYWORD_0 0x00000040u
#define EVENT_ENABLE_PROPERTY_PROCESS_START_KEY 0x00000080u
#define EVENT_ENABLE_PROPERTY_EVENT_KEY 0x00000100u
#define EVENT_ENABLE_PROPERTY_EXCLUDE_INPRIVATE 0x00000200u
#define EVENT_ENABLE_PROPERTY_ENABLE_SILOS 0x00000400u
#define EVENT_ENABLE_PROPERTY_SOURCE_CONTAINER_TRACKING 0x00000800u

/* 16 bytes. */
typedef struct _EVENT_HEADER_EXTENDED_DATA_ITEM {
  USHORT Reserved1; /* @0 */
  USHORT ExtType;   /* @2 EVENT_HEADER_EXT_TYPE_* */
  struct {          /* @4 */
    USHORT Linkage : 1;
    USHORT Reserved2 : 15;
  };
  USHORT DataSize;   /* @6 */
  ULONGLONG DataPtr; /* @8 */
} EVENT_HEADER_EXTENDED_DATA_ITEM, *PEVENT_HEADER_EXTENDED_DATA_ITEM;

/* 80 bytes. */
typedef struct _EVENT_HEADER {
  USHORT Size;                      /* @0 */
  USHORT HeaderType;                /* @2 */
  USHORT Flags;                     /* @4 EVENT_HEADER_FLAG_* */
  USHORT EventProperty;             /* @6 */
  ULONG ThreadId;                   /* @8 */
  ULONG ProcessId;                  /* @12 */
  LARGE_INTEGER TimeStamp;          /* @16 FILETIME: 100 ns since 1601-01-01 UTC */
  GUID ProviderId;                  /* @24 */
  EVENT_DESCRIPTOR EventDescriptor; /* @40 */
  union {                           /* @56 */
    struct {
      ULONG KernelTime;
      ULONG UserTime;
    };
    ULONG64 ProcessorTime;
  };
  GUID ActivityId; /* @64 */
} EVENT_HEADER, *PEVENT_HEADER;

/* 112 bytes. */
typedef struct _EVENT_RECORD {
  EVENT_HEADER EventHeader;                      /* @0 */
  ETW_BUFFER_CONTEXT BufferContext;              /* @80 */
  USHORT ExtendedDataCount;                      /* @84 */
  USHORT UserDataLength;                         /* @86 */
  PEVENT_HEADER_EXTENDED_DATA_ITEM ExtendedData; /* @88 */
  PVOID UserData;                                /* @96 */
  PVOID UserContext;                             /* @104 */
} EVENT_RECORD, *PEVENT_RECORD;
typedef const EVENT_RECORD* PCEVENT_RECORD;

typedef struct _EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID {
  GUID RelatedActivityId;
} EVENT_EXTENDED_ITEM_RELATED_ACTIVITYID, *PEVENT_EXTENDED_ITEM_RELATED_ACTIVITYID;

typedef struct _EVENT_EXTENDED_ITEM_TS_ID {
  ULONG SessionId;
} EVENT_EXTENDED_ITEM_TS_ID, *PEVENT_EXTENDED_ITEM_TS_ID;

/* Return addresses, innermost first (the caller of EventWrite* is Address[0]). */
typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE32 {
  ULONG64 MatchId;
  ULONG Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE32, *PEVENT_EXTENDED_ITEM_STACK_TRACE32;

typedef struct _EVENT_EXTENDED_ITEM_STACK_TRACE64 {
  ULONG64 MatchId;
  ULONG64 Address[ANYSIZE_ARRAY];
} EVENT_EXTENDED_ITEM_STACK_TRACE64, *PEVENT_EXTENDED_ITEM_STACK_TRACE64;

typedef struct _EVENT_EXTENDED_ITEM_EVENT_KEY {
  ULONG64 Key;
} EVENT_EXTENDED_ITEM_EVENT_KEY, *PEVENT_EXTENDED_ITEM_EVENT_KEY;

typedef struct _EVENT_EXTENDED_ITEM_PROCESS_START_KEY {
  ULONG64 ProcessStartKey;
} EVENT_EXTENDED_ITEM_PROCESS_START_KEY, *PEVENT_EXTENDED_ITEM_PROCESS_START_KEY;

/* The trait types of a provider traits blob (EVENT_HEADER_EXT_TYPE_PROV_TRAITS: UINT16
 * size, the NUL-terminated UTF-8 provider name, then per trait UINT16 size, UINT8 type,
 * the data); 128..255 are custom. */
typedef enum PFC_ETW_ENUM_INT {
  EtwProviderTraitTypeGroup = 1, /* the provider group's GUID */
  EtwProviderTraitDecodeGuid = 2,
  EtwProviderTraitTypeMax
} ETW_PROVIDER_TRAIT_TYPE;

/* The first trait of TraitType in the traits blob ProviderTraits: *Trait its data and
 * *Size the data's size, or NULL and 0 when there is none. Reads no byte outside the size
 * the blob's first word gives, and stops at a trait whose size is below 3 or overruns it. */
FORCEINLINE VOID EtwGetTraitFromProviderTraits(PVOID ProviderTraits, UCHAR TraitType, PVOID* Trait,
                                               PUSHORT Size) {
  const UCHAR* p = (const UCHAR*)ProviderTraits;
  const ULONG total = (ULONG)(p[0] | p[1] << 8);
  ULONG at = 2;  /* wider than the size: never wraps */
  *Trait = NULL; /* NOLINT(modernize-use-nullptr): C as well */
  *Size = 0;
  while (at < total && p[at] != 0) ++at; /* the name */
  ++at;                                  /* its NUL */
  while (at + 3 <= total) {
    const ULONG n = (ULONG)(p[at] | p[at + 1] << 8);
    if (n < 3 || n > total - at) return;
    if (p[at + 2] == TraitType) {
      *Trait = (PVOID)(p + at + 3);
      *Size = (USHORT)(n - 3);
      return;
    }
    at += n;
  }
}

#endif /* PFC_ETW_EVNTCONS_H */
