/* pfc/etw/tdh.h — the TDH part of the ETW-compatible C API: instrumentation manifests
 * (TdhLoadManifest*), payload filters built from PAYLOAD_FILTER_PREDICATE sets and their
 * aggregation into one EVENT_FILTER_TYPE_PAYLOAD descriptor for EnableTraceEx2, and the
 * decoding of events (TdhGetEventInformation, TdhGetProperty, TdhFormatProperty, …), with
 * Windows' names, values and x64 layouts (Windows SDK tdh.h; docs/etw.md "Payload filters
 * (TDH)" and "TDH decoding"). Implemented by libpfc_etw.so; every function is thread-safe. */
#ifndef PFC_ETW_TDH_H
#define PFC_ETW_TDH_H

#include "evntcons.h" /* as the SDK's tdh.h: EVENT_RECORD for the decoding API */
#include "evntprov.h"

typedef ULONG TDHSTATUS;
typedef const void* LPCVOID;

/* winerror.h: the manifest is not well-formed XML or not a valid instrumentation manifest. */
#define ERROR_XML_PARSE_ERROR 1465u
/* winerror.h: the event data does not hold the property (TdhFormatProperty). */
#define ERROR_EVT_INVALID_EVENT_DATA 15005u

/* Operators of PAYLOAD_FILTER_PREDICATE.CompareOp (docs/semantics.md §2.2). */
typedef enum _PAYLOAD_OPERATOR PFC_ETW_ENUM_INT {
  PAYLOADFIELD_EQ = 0,
  PAYLOADFIELD_NE = 1,
  PAYLOADFIELD_LE = 2,
  PAYLOADFIELD_GT = 3,
  PAYLOADFIELD_LT = 4,
  PAYLOADFIELD_GE = 5,
  PAYLOADFIELD_BETWEEN = 6,
  PAYLOADFIELD_NOTBETWEEN = 7,
  PAYLOADFIELD_MODULO = 8,
  PAYLOADFIELD_CONTAINS = 20,
  PAYLOADFIELD_DOESNTCONTAIN = 21,
  PAYLOADFIELD_IS = 30,
  PAYLOADFIELD_ISNOT = 31,
  PAYLOADFIELD_INVALID = 32
} PAYLOAD_OPERATOR;

/* One predicate: FieldName (a template field of the event's manifest) CompareOp Value.
 * Value is text converted to the field's type ("lo,hi" for BETWEEN / NOTBETWEEN). 24 bytes. */
typedef struct _PAYLOAD_FILTER_PREDICATE {
  LPWSTR FieldName; /* @0 */
  USHORT CompareOp; /* @8 PAYLOAD_OPERATOR */
  LPWSTR Value;     /* @16 */
} PAYLOAD_FILTER_PREDICATE, *PPAYLOAD_FILTER_PREDICATE;

#define MAX_PAYLOAD_PREDICATES 8

/* TDH_INTYPE: the raw encoding of a field (docs/semantics.md §6). */
enum _TDH_IN_TYPE PFC_ETW_ENUM_INT {
  TDH_INTYPE_NULL = 0,
  TDH_INTYPE_UNICODESTRING = 1,
  TDH_INTYPE_ANSISTRING = 2,
  TDH_INTYPE_INT8 = 3,
  TDH_INTYPE_UINT8 = 4,
  TDH_INTYPE_INT16 = 5,
  TDH_INTYPE_UINT16 = 6,
  TDH_INTYPE_INT32 = 7,
  TDH_INTYPE_UINT32 = 8,
  TDH_INTYPE_INT64 = 9,
  TDH_INTYPE_UINT64 = 10,
  TDH_INTYPE_FLOAT = 11,
  TDH_INTYPE_DOUBLE = 12,
  TDH_INTYPE_BOOLEAN = 13,
  TDH_INTYPE_BINARY = 14,
  TDH_INTYPE_GUID = 15,
  TDH_INTYPE_POINTER = 16,
  TDH_INTYPE_FILETIME = 17,
  TDH_INTYPE_SYSTEMTIME = 18,
  TDH_INTYPE_SID = 19,
  TDH_INTYPE_HEXINT32 = 20,
  TDH_INTYPE_HEXINT64 = 21,
  TDH_INTYPE_MANIFEST_COUNTEDSTRING = 22,
  TDH_INTYPE_MANIFEST_COUNTEDANSISTRING = 23,
  TDH_INTYPE_RESERVED24 = 24,
  TDH_INTYPE_MANIFEST_COUNTEDBINARY = 25,
  TDH_INTYPE_COUNTEDSTRING = 300,
  TDH_INTYPE_COUNTEDANSISTRING = 301,
  TDH_INTYPE_REVERSEDCOUNTEDSTRING = 302,
  TDH_INTYPE_REVERSEDCOUNTEDANSISTRING = 303,
  TDH_INTYPE_NONNULLTERMINATEDSTRING = 304,
  TDH_INTYPE_NONNULLTERMINATEDANSISTRING = 305,
  TDH_INTYPE_UNICODECHAR = 306,
  TDH_INTYPE_ANSICHAR = 307,
  TDH_INTYPE_SIZET = 308,
  TDH_INTYPE_HEXDUMP = 309,
  TDH_INTYPE_WBEMSID = 310
};

/* TDH_OUTTYPE: how a field is shown (Windows SDK tdh.h; docs/etw.md "Manifests"). */
enum _TDH_OUT_TYPE PFC_ETW_ENUM_INT {
  TDH_OUTTYPE_NULL = 0,
  TDH_OUTTYPE_STRING = 1,
  TDH_OUTTYPE_DATETIME = 2,
  TDH_OUTTYPE_BYTE = 3,
  TDH_OUTTYPE_UNSIGNEDBYTE = 4,
  TDH_OUTTYPE_SHORT = 5,
  TDH_OUTTYPE_UNSIGNEDSHORT = 6,
  TDH_OUTTYPE_INT = 7,
  TDH_OUTTYPE_UNSIGNEDINT = 8,
  TDH_OUTTYPE_LONG = 9,
  TDH_OUTTYPE_UNSIGNEDLONG = 10,
  TDH_OUTTYPE_FLOAT = 11,
  TDH_OUTTYPE_DOUBLE = 12,
  TDH_OUTTYPE_BOOLEAN = 13,
  TDH_OUTTYPE_GUID = 14,
  TDH_OUTTYPE_HEXBINARY = 15,
  TDH_OUTTYPE_HEXINT8 = 16,
  TDH_OUTTYPE_HEXINT16 = 17,
  TDH_OUTTYPE_HEXINT32 = 18,
  TDH_OUTTYPE_HEXINT64 = 19,
  TDH_OUTTYPE_PID = 20,
  TDH_OUTTYPE_TID = 21,
  TDH_OUTTYPE_PORT = 22,
  TDH_OUTTYPE_IPV4 = 23,
  TDH_OUTTYPE_IPV6 = 24,
  TDH_OUTTYPE_SOCKETADDRESS = 25,
  TDH_OUTTYPE_CIMDATETIME = 26,
  TDH_OUTTYPE_ETWTIME = 27,
  TDH_OUTTYPE_XML = 28,
  TDH_OUTTYPE_ERRORCODE = 29,
  TDH_OUTTYPE_WIN32ERROR = 30,
  TDH_OUTTYPE_NTSTATUS = 31,
  TDH_OUTTYPE_HRESULT = 32,
  TDH_OUTTYPE_CULTURE_INSENSITIVE_DATETIME = 33,
  TDH_OUTTYPE_JSON = 34,
  TDH_OUTTYPE_UTF8 = 35,
  TDH_OUTTYPE_PKCS7_WITH_TYPE_INFO = 36,
  TDH_OUTTYPE_CODE_POINTER = 37,
  TDH_OUTTYPE_DATETIME_UTC = 38,
  TDH_OUTTYPE_REDUCEDSTRING = 300,
  TDH_OUTTYPE_NOPRINT = 301
};
#define TDH_OUTYTPE_ERRORCODE TDH_OUTTYPE_ERRORCODE /* the SDK's misspelled alias */

/* ---- Decoding (docs/etw.md "TDH decoding") ---- */

/* Where the schema of a decoded event came from (TRACE_EVENT_INFO.DecodingSource). pfc
 * decodes DecodingSourceXMLFile events: manifests, and the schemas `pfc trace enable
 * --script` publishes. */
typedef enum _DECODING_SOURCE PFC_ETW_ENUM_INT {
  DecodingSourceXMLFile = 0,
  DecodingSourceWbem = 1,
  DecodingSourceWPP = 2,
  DecodingSourceTlg = 3,
  DecodingSourceMax = 4
} DECODING_SOURCE;

typedef enum _TEMPLATE_FLAGS PFC_ETW_ENUM_INT {
  TEMPLATE_EVENT_DATA = 1,
  TEMPLATE_USER_DATA = 2,
  TEMPLATE_CONTROL_GUID = 4
} TEMPLATE_FLAGS;

typedef enum _PROPERTY_FLAGS PFC_ETW_ENUM_INT {
  PropertyStruct = 0x1,
  PropertyParamLength = 0x2, /* lengthPropertyIndex names the length's property */
  PropertyParamCount = 0x4,  /* countPropertyIndex names the count's property */
  PropertyWBEMXmlFragment = 0x8,
  PropertyParamFixedLength = 0x10, /* length is a constant of the schema */
  PropertyParamFixedCount = 0x20,  /* count is a constant of the schema (an array) */
  PropertyHasTags = 0x40,
  PropertyHasCustomSchema = 0x80
} PROPERTY_FLAGS;

/* One property of an event. 24 bytes. Offsets are from the start of TRACE_EVENT_INFO. */
typedef struct _EVENT_PROPERTY_INFO {
  PROPERTY_FLAGS Flags; /* @0 */
  ULONG NameOffset;     /* @4 */
  union {               /* @8 */
    struct {
      USHORT InType;
      USHORT OutType;
      ULONG MapNameOffset; /* 0 = no map */
    } nonStructType;
    struct {
      USHORT StructStartIndex;
      USHORT NumOfStructMembers;
      ULONG padding;
    } structType;
    struct {
      USHORT InType;
      USHORT OutType;
      ULONG CustomSchemaOffset;
    } customSchemaType;
  };
  union { /* @16 */
    USHORT count;
    USHORT countPropertyIndex;
  };
  union { /* @18 */
    USHORT length;
    USHORT lengthPropertyIndex;
  };
  union { /* @20 */
    ULONG Reserved;
    struct {
      ULONG Tags : 28;
    };
  };
} EVENT_PROPERTY_INFO, *PEVENT_PROPERTY_INFO;

/* An event's metadata, followed in the same buffer by the strings the offsets point to
 * (NUL-terminated UTF-16; offset 0 = none). 136 bytes with one property. */
typedef struct _TRACE_EVENT_INFO {
  GUID ProviderGuid;                /* @0 */
  GUID EventGuid;                   /* @16 GUID_NULL for manifest events */
  EVENT_DESCRIPTOR EventDescriptor; /* @32 */
  DECODING_SOURCE DecodingSource;   /* @48 */
  ULONG ProviderNameOffset;         /* @52 */
  ULONG LevelNameOffset;            /* @56 */
  ULONG ChannelNameOffset;          /* @60 */
  ULONG KeywordsNameOffset;         /* @64 list of names ending with an empty one */
  ULONG TaskNameOffset;             /* @68 */
  ULONG OpcodeNameOffset;           /* @72 */
  ULONG EventMessageOffset;         /* @76 */
  ULONG ProviderMessageOffset;      /* @80 */
  ULONG BinaryXMLOffset;            /* @84 */
  ULONG BinaryXMLSize;              /* @88 */
  union {                           /* @92 */
    ULONG EventNameOffset;
    ULONG ActivityIDNameOffset;
  };
  union { /* @96 */
    ULONG EventAttributesOffset;
    ULONG RelatedActivityIDNameOffset;
  };
  ULONG PropertyCount;         /* @100 */
  ULONG TopLevelPropertyCount; /* @104 */
  union {                      /* @108 */
    TEMPLATE_FLAGS Flags;
    struct {
      ULONG Reserved : 4;
      ULONG Tags : 28;
    };
  };
  EVENT_PROPERTY_INFO EventPropertyInfoArray[ANYSIZE_ARRAY]; /* @112 */
} TRACE_EVENT_INFO, *PTRACE_EVENT_INFO;

/* Selects a property (PropertyName: the address of its NUL-terminated UTF-16 name) and
 * an element of it (ArrayIndex; ULONG_MAX or 0xFFFFFFFF = the whole property). 16 bytes. */
typedef struct _PROPERTY_DATA_DESCRIPTOR {
  ULONGLONG PropertyName; /* @0 */
  ULONG ArrayIndex;       /* @8 */
  ULONG Reserved;         /* @12 */
} PROPERTY_DATA_DESCRIPTOR, *PPROPERTY_DATA_DESCRIPTOR;

typedef enum _MAP_FLAGS PFC_ETW_ENUM_INT {
  EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP = 0x1,
  EVENTMAP_INFO_FLAG_MANIFEST_BITMAP = 0x2,
  EVENTMAP_INFO_FLAG_MANIFEST_PATTERNMAP = 0x4,
  EVENTMAP_INFO_FLAG_WBEM_VALUEMAP = 0x8,
  EVENTMAP_INFO_FLAG_WBEM_BITMAP = 0x10,
  EVENTMAP_INFO_FLAG_WBEM_FLAG = 0x20,
  EVENTMAP_INFO_FLAG_WBEM_NO_MAP = 0x40
} MAP_FLAGS;

typedef enum _MAP_VALUETYPE PFC_ETW_ENUM_INT {
  EVENTMAP_ENTRY_VALUETYPE_ULONG = 0,
  EVENTMAP_ENTRY_VALUETYPE_STRING = 1
} MAP_VALUETYPE;

/* One map entry: the value (or bit mask) and the offset of its text. 8 bytes. */
typedef struct _EVENT_MAP_ENTRY {
  ULONG OutputOffset; /* @0 */
  union {             /* @4 */
    ULONG Value;
    ULONG InputOffset;
  };
} EVENT_MAP_ENTRY, *PEVENT_MAP_ENTRY;

/* A value map or bit map, followed by its strings. 24 bytes with one entry. */
typedef struct _EVENT_MAP_INFO {
  ULONG NameOffset; /* @0 */
  MAP_FLAGS Flag;   /* @4 */
  ULONG EntryCount; /* @8 */
  union {           /* @12 */
    MAP_VALUETYPE MapEntryValueType;
    ULONG FormatStringOffset;
  };
  EVENT_MAP_ENTRY MapEntryArray[ANYSIZE_ARRAY]; /* @16 */
} EVENT_MAP_INFO, *PEVENT_MAP_INFO;

typedef enum _TDH_CONTEXT_TYPE PFC_ETW_ENUM_INT {
  TDH_CONTEXT_WPP_TMFFILE = 0,
  TDH_CONTEXT_WPP_TMFSEARCHPATH = 1,
  TDH_CONTEXT_WPP_GMT = 2,
  TDH_CONTEXT_POINTERSIZE = 3,
  TDH_CONTEXT_PDB_PATH = 4,
  TDH_CONTEXT_MAXIMUM = 5
} TDH_CONTEXT_TYPE;

/* Context for WPP and classic events; pfc ignores it (docs/etw.md "TDH decoding"). */
typedef struct _TDH_CONTEXT {
  ULONGLONG ParameterValue;       /* @0 */
  TDH_CONTEXT_TYPE ParameterType; /* @8 */
  ULONG ParameterSize;            /* @12 */
} TDH_CONTEXT, *PTDH_CONTEXT;

/* One provider of TdhEnumerateProviders. 24 bytes. */
typedef struct _TRACE_PROVIDER_INFO {
  GUID ProviderGuid;        /* @0 */
  ULONG SchemaSource;       /* @16 0 = manifest (DecodingSourceXMLFile) */
  ULONG ProviderNameOffset; /* @20 from the start of PROVIDER_ENUMERATION_INFO */
} TRACE_PROVIDER_INFO;

typedef struct _PROVIDER_ENUMERATION_INFO {
  ULONG NumberOfProviders;                                   /* @0 */
  ULONG Reserved;                                            /* @4 */
  TRACE_PROVIDER_INFO TraceProviderInfoArray[ANYSIZE_ARRAY]; /* @8 */
} PROVIDER_ENUMERATION_INFO, *PPROVIDER_ENUMERATION_INFO;

/* The SDK's accessors of the strings behind the offsets. */
#define EMI_MAP_NAME(m) ((m)->NameOffset ? (PWSTR)((PBYTE)(m) + (m)->NameOffset) : NULL)
#define EMI_MAP_OUTPUT(m, e) ((e)->OutputOffset ? (PWSTR)((PBYTE)(m) + (e)->OutputOffset) : NULL)
#define TEI_PROVIDER_NAME(i) \
  ((i)->ProviderNameOffset ? (PWSTR)((PBYTE)(i) + (i)->ProviderNameOffset) : NULL)
#define TEI_LEVEL_NAME(i) ((i)->LevelNameOffset ? (PWSTR)((PBYTE)(i) + (i)->LevelNameOffset) : NULL)
#define TEI_CHANNEL_NAME(i) \
  ((i)->ChannelNameOffset ? (PWSTR)((PBYTE)(i) + (i)->ChannelNameOffset) : NULL)
#define TEI_KEYWORDS_NAME(i) \
  ((i)->KeywordsNameOffset ? (PWSTR)((PBYTE)(i) + (i)->KeywordsNameOffset) : NULL)
#define TEI_TASK_NAME(i) ((i)->TaskNameOffset ? (PWSTR)((PBYTE)(i) + (i)->TaskNameOffset) : NULL)
#define TEI_OPCODE_NAME(i) \
  ((i)->OpcodeNameOffset ? (PWSTR)((PBYTE)(i) + (i)->OpcodeNameOffset) : NULL)
#define TEI_EVENT_MESSAGE(i) \
  ((i)->EventMessageOffset ? (PWSTR)((PBYTE)(i) + (i)->EventMessageOffset) : NULL)
#define TEI_PROVIDER_MESSAGE(i) \
  ((i)->ProviderMessageOffset ? (PWSTR)((PBYTE)(i) + (i)->ProviderMessageOffset) : NULL)
#define TEI_EVENT_NAME(i) ((i)->EventNameOffset ? (PWSTR)((PBYTE)(i) + (i)->EventNameOffset) : NULL)
#define TEI_PROPERTY_NAME(i, p) ((p)->NameOffset ? (PWSTR)((PBYTE)(i) + (p)->NameOffset) : NULL)
#define TEI_MAP_NAME(i, p) \
  ((p)->nonStructType.MapNameOffset ? (PWSTR)((PBYTE)(i) + (p)->nonStructType.MapNameOffset) : NULL)

PFC_ETW_EXTERN_C_BEGIN

/* Loads the instrumentation manifest (XML) at Manifest, a NUL-terminated UTF-16 path, into
 * the process-wide TDH store: its providers' schemas then serve TdhCreatePayloadFilter,
 * EnableTraceEx2's payload filters and EventRegister (a provider registered after its
 * manifest is loaded routes payload filters with the manifest's event layouts). Loading a
 * path again replaces what it loaded before; when several loaded manifests describe one
 * provider GUID, the most recently loaded wins. Errors: ERROR_INVALID_PARAMETER (NULL, or
 * longer than MAX_PATH = 260 characters, or bad UTF-16), ERROR_FILE_NOT_FOUND (cannot be
 * read), ERROR_XML_PARSE_ERROR (not well-formed XML, or not a valid manifest: the reason
 * is in PfcTdhGetLastErrorMessage()). */
PFC_ETW_API TDHSTATUS TdhLoadManifest(PWSTR Manifest);
/* Unloads what TdhLoadManifest or TdhLoadManifestFromBinary loaded from that path.
 * ERROR_INVALID_PARAMETER as above; ERROR_FILE_NOT_FOUND when the path is not loaded. */
PFC_ETW_API TDHSTATUS TdhUnloadManifest(PWSTR Manifest);
/* Windows reads the manifest from a PE resource of BinaryPath. pfc reads the file at
 * BinaryPath (any format, e.g. an ELF executable or shared library) and loads the first
 * XML instrumentation manifest embedded in it as text (from "<?xml" or
 * "<instrumentationManifest" to the matching end tag). Errors as TdhLoadManifest, plus
 * ERROR_XML_PARSE_ERROR when the file embeds no manifest. */
PFC_ETW_API TDHSTATUS TdhLoadManifestFromBinary(PWSTR BinaryPath);
/* Loads a manifest from memory: cbData bytes of XML at pData (Windows 10 expects the
 * compiled binary form there; pfc takes the XML text). The bytes are copied. Errors:
 * ERROR_INVALID_PARAMETER (NULL or 0 bytes), ERROR_XML_PARSE_ERROR. */
PFC_ETW_API TDHSTATUS TdhLoadManifestFromMemory(LPCVOID pData, ULONG cbData);
/* Unloads a manifest loaded from memory with the same bytes. ERROR_INVALID_PARAMETER,
 * ERROR_NOT_FOUND when no such manifest is loaded. */
PFC_ETW_API TDHSTATUS TdhUnloadManifestFromMemory(LPCVOID pData, ULONG cbData);

/* Builds one payload filter for the event (Id, Version) of EventDescriptor: predicates are
 * AND-ed (EventMatchANY FALSE) or OR-ed (TRUE). Field names are resolved in the loaded
 * manifest of ProviderGuid; values are converted from text to the field's type.
 * *PayloadFilter receives an opaque object to free with TdhDeletePayloadFilter. Errors:
 * ERROR_INVALID_PARAMETER (a NULL pointer; PayloadPredicateCount 0 or above
 * MAX_PAYLOAD_PREDICATES; NULL FieldName or Value; an unknown operator; an operator that
 * does not apply to the field's type; a value that does not convert; an array field),
 * ERROR_FILE_NOT_FOUND (no loaded manifest describes ProviderGuid), ERROR_NOT_FOUND (the
 * manifest has no event with that Id and Version, or the event has no such field),
 * ERROR_INSUFFICIENT_BUFFER (the filter alone would exceed MAX_EVENT_FILTER_PAYLOAD_SIZE),
 * ERROR_NOT_ENOUGH_MEMORY. */
PFC_ETW_API TDHSTATUS TdhCreatePayloadFilter(LPCGUID ProviderGuid,
                                             PCEVENT_DESCRIPTOR EventDescriptor,
                                             BOOLEAN EventMatchANY, ULONG PayloadPredicateCount,
                                             PPAYLOAD_FILTER_PREDICATE PayloadPredicates,
                                             PVOID* PayloadFilter);
/* Frees a filter of TdhCreatePayloadFilter and sets *PayloadFilter to NULL.
 * ERROR_INVALID_PARAMETER for NULL or for something that is not such a filter. */
PFC_ETW_API TDHSTATUS TdhDeletePayloadFilter(PVOID* PayloadFilter);
/* Combines filters of one provider into one EVENT_FILTER_TYPE_PAYLOAD descriptor whose
 * Ptr / Size describe a self-contained blob (at most MAX_EVENT_FILTER_PAYLOAD_SIZE bytes)
 * that may be copied, stored or handed to another process. EventMatchALLFlags (may be
 * NULL = all FALSE): TRUE puts filter i in its event's "all" group, FALSE in its "any"
 * group; an event passes iff every "all" filter passes and (there is no "any" filter or
 * one passes). The filters stay owned by the caller. Free the blob with
 * TdhCleanupPayloadEventFilterDescriptor. Errors: ERROR_INVALID_PARAMETER (NULL pointers,
 * count 0 or above 65535, an invalid filter, filters of different providers),
 * ERROR_INSUFFICIENT_BUFFER (the blob would exceed MAX_EVENT_FILTER_PAYLOAD_SIZE),
 * ERROR_NOT_ENOUGH_MEMORY. */
PFC_ETW_API TDHSTATUS TdhAggregatePayloadFilters(ULONG PayloadFilterCount, PVOID* PayloadFilterPtrs,
                                                 PBOOLEAN EventMatchALLFlags,
                                                 PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);
/* Frees the blob of TdhAggregatePayloadFilters and zeroes the descriptor.
 * ERROR_INVALID_PARAMETER for NULL or a descriptor that is not of type PAYLOAD. */
PFC_ETW_API TDHSTATUS
TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor);

/* The metadata of the event in Event (its provider GUID and descriptor looked up in the
 * schemas docs/etw.md "TDH decoding" lists) into Buffer: *BufferSize bytes in, the bytes
 * used (or, with ERROR_INSUFFICIENT_BUFFER, needed) out; Buffer may be NULL when
 * *BufferSize is 0. TdhContext is ignored. Errors: ERROR_INVALID_PARAMETER (NULL Event or
 * BufferSize), ERROR_NOT_FOUND (no schema describes the event), ERROR_INSUFFICIENT_BUFFER. */
PFC_ETW_API TDHSTATUS TdhGetEventInformation(PEVENT_RECORD Event, ULONG TdhContextCount,
                                             PTDH_CONTEXT TdhContext, PTRACE_EVENT_INFO Buffer,
                                             PULONG BufferSize);
/* The value map or bit map pMapName (NUL-terminated UTF-16) of the event's provider, sized
 * and returned as TdhGetEventInformation does. A manifest map's texts end with one space,
 * as Windows' do. Errors: ERROR_INVALID_PARAMETER, ERROR_NOT_FOUND (no schema, or no such
 * map), ERROR_INSUFFICIENT_BUFFER. */
PFC_ETW_API TDHSTATUS TdhGetEventMapInformation(PEVENT_RECORD pEvent, PWSTR pMapName,
                                                PEVENT_MAP_INFO pBuffer, ULONG* pBufferSize);
/* The size in bytes of the property pPropertyData selects in the event's data (one
 * descriptor: a top-level property; ArrayIndex an element or 0xFFFFFFFF for all of it).
 * Errors: ERROR_INVALID_PARAMETER (NULL pointers, PropertyDataCount not 1, an element
 * past the array), ERROR_NOT_FOUND (no schema, or no such property),
 * ERROR_EVT_INVALID_EVENT_DATA (the event's data does not hold the property). */
PFC_ETW_API TDHSTATUS TdhGetPropertySize(PEVENT_RECORD pEvent, ULONG TdhContextCount,
                                         PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
                                         PPROPERTY_DATA_DESCRIPTOR pPropertyData,
                                         ULONG* pPropertySize);
/* Copies that property's bytes to pBuffer. Errors as TdhGetPropertySize, plus
 * ERROR_INSUFFICIENT_BUFFER when BufferSize is less than its size. */
PFC_ETW_API TDHSTATUS TdhGetProperty(PEVENT_RECORD pEvent, ULONG TdhContextCount,
                                     PTDH_CONTEXT pTdhContext, ULONG PropertyDataCount,
                                     PPROPERTY_DATA_DESCRIPTOR pPropertyData, ULONG BufferSize,
                                     PBYTE pBuffer);
/* The providers whose schemas decode events here (the loaded manifests), sized and
 * returned as TdhGetEventInformation does. Errors: ERROR_INVALID_PARAMETER,
 * ERROR_INSUFFICIENT_BUFFER. */
PFC_ETW_API TDHSTATUS TdhEnumerateProviders(PPROVIDER_ENUMERATION_INFO pBuffer, ULONG* pBufferSize);
/* Formats one value (one element of an array) at UserData as text (the texts per type are
 * in docs/etw.md "TDH decoding"): PropertyLength is the property's length (0 = of its
 * type, or NUL-terminated), MapInfo (may be NULL) maps integers to names, PointerSize is
 * 4 or 8; an out-type that does not apply to the in-type shows the in-type's default.
 * *BufferSize is in bytes, NUL included; *UserDataConsumed receives the bytes the value
 * took. Errors: ERROR_INVALID_PARAMETER (NULL pointers, a PointerSize other than 4 or 8,
 * an in-type pfc does not format), ERROR_EVT_INVALID_EVENT_DATA (UserDataLength bytes do
 * not hold the value, or its value map has no entry for it), ERROR_INSUFFICIENT_BUFFER
 * (with the needed size in *BufferSize). */
PFC_ETW_API TDHSTATUS TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
                                        ULONG PointerSize, USHORT PropertyInType,
                                        USHORT PropertyOutType, USHORT PropertyLength,
                                        USHORT UserDataLength, PBYTE UserData, PULONG BufferSize,
                                        PWCHAR Buffer, PUSHORT UserDataConsumed);

/* pfc extension: a one-line UTF-8 explanation of the calling thread's last failed TDH call
 * (e.g. "Example.man:12:5: unknown inType 'win:Int128' of data 'X'"), or "" after a
 * successful one. Thread-local; valid until the thread's next TDH call. Never NULL. */
PFC_ETW_API const char* PfcTdhGetLastErrorMessage(void);

PFC_ETW_EXTERN_C_END

#ifdef __cplusplus
/* C++: TdhFormatProperty into a wchar_t buffer, as Windows code declares its buffers
 * (std::vector<wchar_t>). The buffer receives the same UTF-16 units (WCHARs) as a WCHAR
 * buffer; *BufferSize counts bytes as always (a wchar_t buffer of *BufferSize / 2
 * elements, Windows' size, holds them). Read the text as WCHARs, e.g. with wprintf(u"%ls")
 * (pfc_etw_wprintf.h). A template, so that NULL, nullptr and WCHAR buffers still call the
 * function above. */
template <class T>
struct PfcEtwIsWcharT {
  static const bool value = false;
};
template <>
struct PfcEtwIsWcharT<wchar_t> {
  static const bool value = true;
};
template <class W>
inline TDHSTATUS TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo,
                                   ULONG PointerSize, USHORT PropertyInType, USHORT PropertyOutType,
                                   USHORT PropertyLength, USHORT UserDataLength, PBYTE UserData,
                                   PULONG BufferSize, W* Buffer, PUSHORT UserDataConsumed) {
  static_assert(PfcEtwIsWcharT<W>::value, "TdhFormatProperty: Buffer must be WCHAR* or wchar_t*");
  return TdhFormatProperty(EventInfo, MapInfo, PointerSize, PropertyInType, PropertyOutType,
                           PropertyLength, UserDataLength, UserData, BufferSize,
                           reinterpret_cast<PWCHAR>(Buffer), UserDataConsumed);
}
#endif

#endif /* PFC_ETW_TDH_H */
