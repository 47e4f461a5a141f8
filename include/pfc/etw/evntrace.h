/* pfc/etw/evntrace.h — the controller and consumer side of the ETW-compatible C API
 * (StartTraceW, ControlTraceW, EnableTraceEx2, OpenTraceW, ProcessTrace, CloseTrace) and
 * classic (legacy) providers (RegisterTraceGuidsW, GetTraceEnable*, TraceEvent), with
 * Windows' names, values and x64 layouts (Windows SDK evntrace.h; docs/etw.md). Sessions are
 * real-time and live inside the calling process. Every function is thread-safe. */
#ifndef PFC_ETW_EVNTRACE_H
#define PFC_ETW_EVNTRACE_H

#include "evntprov.h"

/* The provider GUID of a log file's header event (EVENT_TRACE_TYPE_INFO). Defined where
 * INITGUID is defined before this header (or after initguid.h), as in the SDK; declared
 * elsewhere. */
#ifdef INITGUID
/* NOLINTNEXTLINE(misc-definitions-in-headers): weak, under INITGUID only, as in the SDK */
PFC_ETW_DEFINE_GUID_VALUE(EventTraceGuid, 0x68fdd900, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8,
                          0x04, 0x64, 0xe3);
#else
DEFINE_GUID(EventTraceGuid, 0x68fdd900, 0x4a3e, 0x11d1, 0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64,
            0xe3);
#endif

#define WNODE_FLAG_TRACED_GUID 0x00020000u
#define WNODE_FLAG_USE_GUID_PTR 0x00080000u
#define WNODE_FLAG_USE_MOF_PTR 0x00100000u

#define TRACE_LEVEL_NONE 0
#define TRACE_LEVEL_CRITICAL 1
#define TRACE_LEVEL_FATAL 1
#define TRACE_LEVEL_ERROR 2
#define TRACE_LEVEL_WARNING 3
#define TRACE_LEVEL_INFORMATION 4
#define TRACE_LEVEL_VERBOSE 5
#define TRACE_LEVEL_RESERVED6 6
#define TRACE_LEVEL_RESERVED7 7
#define TRACE_LEVEL_RESERVED8 8
#define TRACE_LEVEL_RESERVED9 9

#define EVENT_TRACE_TYPE_INFO 0x00
#define EVENT_TRACE_TYPE_START 0x01
#define EVENT_TRACE_TYPE_END 0x02
#define EVENT_TRACE_TYPE_STOP 0x02
#define EVENT_TRACE_TYPE_DC_START 0x03
#define EVENT_TRACE_TYPE_DC_END 0x04
#define EVENT_TRACE_TYPE_EXTENSION 0x05
#define EVENT_TRACE_TYPE_REPLY 0x06
#define EVENT_TRACE_TYPE_DEQUEUE 0x07
#define EVENT_TRACE_TYPE_RESUME 0x07
#define EVENT_TRACE_TYPE_CHECKPOINT 0x08
#define EVENT_TRACE_TYPE_SUSPEND 0x08
#define EVENT_TRACE_TYPE_WINEVT_SEND 0x09
#define EVENT_TRACE_TYPE_WINEVT_RECEIVE 0xF0

#ifndef EVENT_CONTROL_CODE_DISABLE_PROVIDER
#define EVENT_CONTROL_CODE_DISABLE_PROVIDER 0
#define EVENT_CONTROL_CODE_ENABLE_PROVIDER 1
#define EVENT_CONTROL_CODE_CAPTURE_STATE 2
#endif

#define EVENT_TRACE_CONTROL_QUERY 0
#define EVENT_TRACE_CONTROL_STOP 1
#define EVENT_TRACE_CONTROL_UPDATE 2
#define EVENT_TRACE_CONTROL_FLUSH 3
#define EVENT_TRACE_CONTROL_INCREMENT_FILE 4
#define EVENT_TRACE_CONTROL_CONVERT_TO_REALTIME 5

/* EVENT_TRACE_PROPERTIES.LogFileMode. Only real-time sessions are supported. */
#define EVENT_TRACE_FILE_MODE_NONE 0x00000000u
#define EVENT_TRACE_FILE_MODE_SEQUENTIAL 0x00000001u
#define EVENT_TRACE_FILE_MODE_CIRCULAR 0x00000002u
#define EVENT_TRACE_FILE_MODE_APPEND 0x00000004u
#define EVENT_TRACE_FILE_MODE_NEWFILE 0x00000008u
#define EVENT_TRACE_FILE_MODE_PREALLOCATE 0x00000020u
#define EVENT_TRACE_NONSTOPPABLE_MODE 0x00000040u
#define EVENT_TRACE_SECURE_MODE 0x00000080u
#define EVENT_TRACE_REAL_TIME_MODE 0x00000100u
#define EVENT_TRACE_DELAY_OPEN_FILE_MODE 0x00000200u
#define EVENT_TRACE_BUFFERING_MODE 0x00000400u
#define EVENT_TRACE_PRIVATE_LOGGER_MODE 0x00000800u
#define EVENT_TRACE_ADD_HEADER_MODE 0x00001000u
#define EVENT_TRACE_USE_GLOBAL_SEQUENCE 0x00004000u
#define EVENT_TRACE_USE_LOCAL_SEQUENCE 0x00008000u
#define EVENT_TRACE_RELOG_MODE 0x00010000u
#define EVENT_TRACE_PRIVATE_IN_PROC 0x00020000u
#define EVENT_TRACE_USE_PAGED_MEMORY 0x01000000u
#define EVENT_TRACE_SYSTEM_LOGGER_MODE 0x02000000u
#define EVENT_TRACE_INDEPENDENT_SESSION_MODE 0x08000000u
#define EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING 0x10000000u

/* EVENT_TRACE_LOGFILEW.ProcessTraceMode. */
#define PROCESS_TRACE_MODE_REAL_TIME 0x00000100u
#define PROCESS_TRACE_MODE_RAW_TIMESTAMP 0x00001000u
#define PROCESS_TRACE_MODE_EVENT_RECORD 0x10000000u

#define INVALID_PROCESSTRACE_HANDLE ((TRACEHANDLE)0xFFFFFFFFFFFFFFFFull)

#define ENABLE_TRACE_PARAMETERS_VERSION 1
#define ENABLE_TRACE_PARAMETERS_VERSION_2 2

/* 48 bytes. */
typedef struct _WNODE_HEADER {
  ULONG BufferSize;            /* @0 total size of the properties buffer */
  ULONG ProviderId;            /* @4 */
  union {                      /* @8 */
    ULONG64 HistoricalContext; /* the session handle */
    struct {
      ULONG Version;
      ULONG Linkage;
    };
  };
  union { /* @16 */
    ULONG CountLost;
    HANDLE KernelHandle;
    LARGE_INTEGER TimeStamp;
  };
  GUID Guid;           /* @24 the session GUID */
  ULONG ClientContext; /* @40 clock: 1 = QPC (the only one), 2 = system time, 3 = CPU cycles */
  ULONG Flags;         /* @44 WNODE_FLAG_* (TRACED_GUID required) */
} WNODE_HEADER, *PWNODE_HEADER;

/* 120 bytes; the logger name (and log file name) follow at their offsets. */
typedef struct _EVENT_TRACE_PROPERTIES {
  WNODE_HEADER Wnode;    /* @0 */
  ULONG BufferSize;      /* @48 KB */
  ULONG MinimumBuffers;  /* @52 */
  ULONG MaximumBuffers;  /* @56 */
  ULONG MaximumFileSize; /* @60 */
  ULONG LogFileMode;     /* @64 */
  ULONG FlushTimer;      /* @68 */
  ULONG EnableFlags;     /* @72 */
  union {                /* @76 */
    LONG AgeLimit;
    LONG FlushThreshold;
  };
  ULONG NumberOfBuffers;     /* @80 */
  ULONG FreeBuffers;         /* @84 */
  ULONG EventsLost;          /* @88 */
  ULONG BuffersWritten;      /* @92 */
  ULONG LogBuffersLost;      /* @96 */
  ULONG RealTimeBuffersLost; /* @100 */
  HANDLE LoggerThreadId;     /* @104 */
  ULONG LogFileNameOffset;   /* @112 */
  ULONG LoggerNameOffset;    /* @116 */
} EVENT_TRACE_PROPERTIES, *PEVENT_TRACE_PROPERTIES;

/* 40 bytes: one filter descriptor, no count. */
typedef struct _ENABLE_TRACE_PARAMETERS_V1 {
  ULONG Version;                             /* @0 ENABLE_TRACE_PARAMETERS_VERSION */
  ULONG EnableProperty;                      /* @4 EVENT_ENABLE_PROPERTY_* */
  ULONG ControlFlags;                        /* @8 reserved, 0 */
  GUID SourceId;                             /* @12 */
  PEVENT_FILTER_DESCRIPTOR EnableFilterDesc; /* @32 */
} ENABLE_TRACE_PARAMETERS_V1, *PENABLE_TRACE_PARAMETERS_V1;

/* 48 bytes. */
typedef struct _ENABLE_TRACE_PARAMETERS {
  ULONG Version;                             /* @0 ENABLE_TRACE_PARAMETERS_VERSION_2 */
  ULONG EnableProperty;                      /* @4 */
  ULONG ControlFlags;                        /* @8 */
  GUID SourceId;                             /* @12 passed to the providers' enable callbacks */
  PEVENT_FILTER_DESCRIPTOR EnableFilterDesc; /* @32 array of FilterDescCount */
  ULONG FilterDescCount;                     /* @40 */
} ENABLE_TRACE_PARAMETERS, *PENABLE_TRACE_PARAMETERS;

/* Classic event header (TraceEvent); 48 bytes. */
typedef struct _EVENT_TRACE_HEADER {
  USHORT Size; /* @0 header + MOF data, or header + MOF_FIELD array */
  union {      /* @2 */
    USHORT FieldTypeFlags;
    struct {
      UCHAR HeaderType;
      UCHAR MarkerFlags;
    };
  };
  union { /* @4 */
    ULONG Version;
    struct {
      UCHAR Type; /* EVENT_TRACE_TYPE_* (delivered as Opcode) */
      UCHAR Level;
      USHORT Version;
    } Class;
  };
  ULONG ThreadId;          /* @8 */
  ULONG ProcessId;         /* @12 */
  LARGE_INTEGER TimeStamp; /* @16 */
  union {                  /* @24 */
    GUID Guid;
    ULONGLONG GuidPtr;
  };
  union { /* @40 */
    struct {
      ULONG KernelTime;
      ULONG UserTime;
    };
    ULONG64 ProcessorTime;
    struct {
      ULONG ClientContext;
      ULONG Flags; /* WNODE_FLAG_TRACED_GUID | WNODE_FLAG_USE_MOF_PTR | ... */
    };
  };
} EVENT_TRACE_HEADER, *PEVENT_TRACE_HEADER;

/* With WNODE_FLAG_USE_MOF_PTR the header is followed by MOF_FIELDs; 16 bytes. */
typedef struct _MOF_FIELD {
  ULONG64 DataPtr;
  ULONG Length;
  ULONG DataType;
} MOF_FIELD, *PMOF_FIELD;

typedef struct _ETW_BUFFER_CONTEXT {
  union {
    struct {
      UCHAR ProcessorNumber;
      UCHAR Alignment;
    };
    USHORT ProcessorIndex;
  };
  USHORT LoggerId;
} ETW_BUFFER_CONTEXT, *PETW_BUFFER_CONTEXT;

/* 88 bytes. */
typedef struct _EVENT_TRACE {
  EVENT_TRACE_HEADER Header; /* @0 */
  ULONG InstanceId;          /* @48 */
  ULONG ParentInstanceId;    /* @52 */
  GUID ParentGuid;           /* @56 */
  PVOID MofData;             /* @72 */
  ULONG MofLength;           /* @80 */
  union {                    /* @84 */
    ULONG ClientContext;
    ETW_BUFFER_CONTEXT BufferContext;
  };
} EVENT_TRACE, *PEVENT_TRACE;

/* 280 bytes. */
typedef struct _TRACE_LOGFILE_HEADER {
  ULONG BufferSize; /* @0 */
  union {           /* @4 */
    ULONG Version;
    struct {
      UCHAR MajorVersion;
      UCHAR MinorVersion;
      UCHAR SubVersion;
      UCHAR SubMinorVersion;
    } VersionDetail;
  };
  ULONG ProviderVersion;    /* @8 */
  ULONG NumberOfProcessors; /* @12 */
  LARGE_INTEGER EndTime;    /* @16 */
  ULONG TimerResolution;    /* @24 */
  ULONG MaximumFileSize;    /* @28 */
  ULONG LogFileMode;        /* @32 */
  ULONG BuffersWritten;     /* @36 */
  union {                   /* @40 */
    GUID LogInstanceGuid;
    struct {
      ULONG StartBuffers;
      ULONG PointerSize;
      ULONG EventsLost;
      ULONG CpuSpeedInMHz;
    };
  };
  LPWSTR LoggerName;              /* @56 */
  LPWSTR LogFileName;             /* @64 */
  TIME_ZONE_INFORMATION TimeZone; /* @72 */
  LARGE_INTEGER BootTime;         /* @248 */
  LARGE_INTEGER PerfFreq;         /* @256 */
  LARGE_INTEGER StartTime;        /* @264 */
  ULONG ReservedFlags;            /* @272 */
  ULONG BuffersLost;              /* @276 */
} TRACE_LOGFILE_HEADER, *PTRACE_LOGFILE_HEADER;

struct _EVENT_RECORD;
struct _EVENT_TRACE_LOGFILEW;
typedef VOID(WINAPI* PEVENT_CALLBACK)(PEVENT_TRACE pEvent);
typedef VOID(WINAPI* PEVENT_RECORD_CALLBACK)(struct _EVENT_RECORD* EventRecord);
typedef ULONG(WINAPI* PEVENT_TRACE_BUFFER_CALLBACKW)(struct _EVENT_TRACE_LOGFILEW* Logfile);

/* 448 bytes. */
typedef struct _EVENT_TRACE_LOGFILEW {
  LPWSTR LogFileName;   /* @0 must be NULL (no log files) */
  LPWSTR LoggerName;    /* @8 the real-time session */
  LONGLONG CurrentTime; /* @16 */
  ULONG BuffersRead;    /* @24 */
  union {               /* @28 */
    ULONG LogFileMode;
    ULONG ProcessTraceMode; /* PROCESS_TRACE_MODE_REAL_TIME | _EVENT_RECORD */
  };
  EVENT_TRACE CurrentEvent;                     /* @32 */
  TRACE_LOGFILE_HEADER LogfileHeader;           /* @120 */
  PEVENT_TRACE_BUFFER_CALLBACKW BufferCallback; /* @400 */
  ULONG BufferSize;                             /* @408 */
  ULONG Filled;                                 /* @412 */
  ULONG EventsLost;                             /* @416 */
  union {                                       /* @424 */
    PEVENT_CALLBACK EventCallback;
    PEVENT_RECORD_CALLBACK EventRecordCallback;
  };
  ULONG IsKernelTrace; /* @432 */
  PVOID Context;       /* @440 becomes EVENT_RECORD.UserContext */
} EVENT_TRACE_LOGFILEW, *PEVENT_TRACE_LOGFILEW;

/* Legacy (classic) providers. */
typedef enum PFC_ETW_ENUM_INT {
  WMI_GET_ALL_DATA = 0,
  WMI_GET_SINGLE_INSTANCE = 1,
  WMI_SET_SINGLE_INSTANCE = 2,
  WMI_SET_SINGLE_ITEM = 3,
  WMI_ENABLE_EVENTS = 4,
  WMI_DISABLE_EVENTS = 5,
  WMI_ENABLE_COLLECTION = 6,
  WMI_DISABLE_COLLECTION = 7,
  WMI_REGINFO = 8,
  WMI_EXECUTE_METHOD = 9,
  WMI_CAPTURE_STATE = 10
} WMIDPREQUESTCODE;

/* Buffer is a WNODE_HEADER whose HistoricalContext is the logger handle of
 * GetTraceLoggerHandle: a TRACE_ENABLE_CONTEXT (logger id, level, flags). */
typedef ULONG(WINAPI* WMIDPREQUEST)(WMIDPREQUESTCODE RequestCode, PVOID RequestContext,
                                    ULONG* BufferSize, PVOID Buffer);

/* 16 bytes. */
typedef struct _TRACE_GUID_REGISTRATION {
  LPCGUID Guid;
  HANDLE RegHandle;
} TRACE_GUID_REGISTRATION, *PTRACE_GUID_REGISTRATION;

/* The 8 bytes of a legacy logger handle. */
typedef struct _TRACE_ENABLE_CONTEXT {
  USHORT LoggerId;    /* @0 */
  UCHAR Level;        /* @2 */
  UCHAR InternalFlag; /* @3 */
  ULONG EnableFlags;  /* @4 MatchAnyKeyword truncated to 32 bits */
} TRACE_ENABLE_CONTEXT, *PTRACE_ENABLE_CONTEXT;

/* EnumerateTraceGuidsEx's information classes (the SDK's values). pfc answers
 * TraceGuidQueryList and TraceGuidQueryInfo; the others give ERROR_NOT_SUPPORTED. */
typedef enum _TRACE_QUERY_INFO_CLASS PFC_ETW_ENUM_INT {
  TraceGuidQueryList = 0,
  TraceGuidQueryInfo = 1,
  TraceGuidQueryProcess = 2,
  TraceStackTracingInfo = 3,
  TraceSystemTraceEnableFlagsInfo = 4,
  TraceSampledProfileIntervalInfo = 5,
  TraceProfileSourceConfigInfo = 6,
  TraceProfileSourceListInfo = 7,
  TracePmcEventListInfo = 8,
  TracePmcCounterListInfo = 9,
  TraceSetDisallowList = 10,
  TraceVersionInfo = 11,
  TraceGroupQueryList = 12,
  TraceGroupQueryInfo = 13,
  TraceDisallowListQuery = 14,
  TraceInfoReserved15 = 15,
  TracePeriodicCaptureStateListInfo = 16,
  TracePeriodicCaptureStateInfo = 17,
  TraceProviderBinaryTracking = 18,
  TraceMaxLoggersQuery = 19,
  TraceLbrConfigurationInfo = 20,
  TraceLbrEventListInfo = 21,
  TraceMaxPmcCounterQuery = 22,
  TraceStreamCount = 23,
  TraceStackCachingInfo = 24,
  TracePmcCounterOwners = 25,
  TraceUnifiedStackCachingInfo = 26,
  TracePmcSessionInformation = 27,
  MaxTraceSetInfoClass
} TRACE_QUERY_INFO_CLASS,
    TRACE_INFO_CLASS;

/* TraceGuidQueryInfo's answer: this header, then InstanceCount TRACE_PROVIDER_INSTANCE_INFO
 * blocks, each followed by its EnableCount TRACE_ENABLE_INFO structs. */
typedef struct _TRACE_GUID_INFO {
  ULONG InstanceCount; /* @0 */
  ULONG Reserved;      /* @4 */
} TRACE_GUID_INFO, *PTRACE_GUID_INFO;

#define TRACE_PROVIDER_FLAG_LEGACY 0x00000001
#define TRACE_PROVIDER_FLAG_PRE_ENABLE 0x00000002 /* enabled, no registration known */

typedef struct _TRACE_PROVIDER_INSTANCE_INFO {
  ULONG NextOffset;  /* @0 from this block to the next one; 0 for the last */
  ULONG EnableCount; /* @4 TRACE_ENABLE_INFO structs after this one */
  ULONG Pid;         /* @8 the registering process (0: none known) */
  ULONG Flags;       /* @12 TRACE_PROVIDER_FLAG_* */
} TRACE_PROVIDER_INSTANCE_INFO, *PTRACE_PROVIDER_INSTANCE_INFO;

/* One session's enable of the provider. */
typedef struct _TRACE_ENABLE_INFO {
  ULONG IsEnabled;           /* @0 */
  UCHAR Level;               /* @4 */
  UCHAR Reserved1;           /* @5 */
  USHORT LoggerId;           /* @6 the session's logger id (its handle's low 16 bits) */
  ULONG EnableProperty;      /* @8 */
  ULONG Reserved2;           /* @12 */
  ULONGLONG MatchAnyKeyword; /* @16 */
  ULONGLONG MatchAllKeyword; /* @24 */
} TRACE_ENABLE_INFO, *PTRACE_ENABLE_INFO;

PFC_ETW_EXTERN_C_BEGIN

/* Starts a real-time session named InstanceName. Properties->Wnode.BufferSize must cover
 * the struct (ERROR_BAD_LENGTH), Wnode.Flags must have WNODE_FLAG_TRACED_GUID and LogFileMode
 * EVENT_TRACE_REAL_TIME_MODE (ERROR_INVALID_PARAMETER / ERROR_NOT_SUPPORTED for log files).
 * Fills *TraceHandle, Wnode.HistoricalContext, Wnode.Guid (generated when zero) and the
 * name at LoggerNameOffset. ERROR_ALREADY_EXISTS for a duplicate name,
 * ERROR_NO_SYSTEM_RESOURCES beyond 64 sessions. */
PFC_ETW_API ULONG WMIAPI StartTraceW(PTRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                                     PEVENT_TRACE_PROPERTIES Properties);
/* QUERY, STOP, UPDATE (FlushTimer, EnableFlags) and FLUSH (no-op) on the session named by
 * TraceHandle, or by InstanceName when TraceHandle is 0. Fills Properties.
 * ERROR_WMI_INSTANCE_NOT_FOUND for no such session. */
PFC_ETW_API ULONG WMIAPI ControlTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                                       PEVENT_TRACE_PROPERTIES Properties, ULONG ControlCode);
PFC_ETW_API ULONG WMIAPI StopTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                                    PEVENT_TRACE_PROPERTIES Properties);
PFC_ETW_API ULONG WMIAPI QueryTraceW(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                                     PEVENT_TRACE_PROPERTIES Properties);
/* Fills PropertyArray[0..] as ControlTraceW(QUERY) does, one entry per session of the
 * namespace in logger-id order; each entry needs Wnode.BufferSize (ERROR_BAD_LENGTH when it
 * does not cover the struct) and the offsets of room for the names. *LoggerCount gets the
 * number of sessions; ERROR_MORE_DATA when that is more than PropertyArrayCount (the first
 * PropertyArrayCount are filled). ERROR_INVALID_PARAMETER: NULL PropertyArray, LoggerCount
 * or entry, PropertyArrayCount 0 or above 64. */
PFC_ETW_API ULONG WMIAPI QueryAllTracesW(PEVENT_TRACE_PROPERTIES* PropertyArray,
                                         ULONG PropertyArrayCount, PULONG LoggerCount);
/* TraceGuidQueryList: the GUIDs of the namespace's enabled providers (an array of GUID), in
 * the order of their oldest enable. TraceGuidQueryInfo (InBuffer: one GUID): a
 * TRACE_GUID_INFO with one TRACE_PROVIDER_INSTANCE_INFO (Pid 0, TRACE_PROVIDER_FLAG_PRE_ENABLE:
 * the namespace records enables, not registrations; docs/etw.md "Choices") followed by a
 * TRACE_ENABLE_INFO per enabling session, in logger-id order; ERROR_WMI_GUID_NOT_FOUND when
 * no session enables it. *ReturnLength gets the bytes needed; ERROR_INSUFFICIENT_BUFFER
 * when OutBufferSize is smaller (nothing written). Other classes: ERROR_NOT_SUPPORTED. */
PFC_ETW_API ULONG WMIAPI EnumerateTraceGuidsEx(TRACE_QUERY_INFO_CLASS TraceQueryInfoClass,
                                               PVOID InBuffer, ULONG InBufferSize, PVOID OutBuffer,
                                               ULONG OutBufferSize, PULONG ReturnLength);

/* Enables (ControlCode 1), disables (0) or asks for captured state (2) of ProviderId on
 * the session TraceId. Timeout 0 returns without waiting for the enable callbacks; other
 * values wait up to Timeout ms (INFINITE: forever) and give ERROR_TIMEOUT when they did
 * not complete (the change itself is made). Errors: ERROR_INVALID_PARAMETER (TraceId 0,
 * NULL ProviderId, bad code, bad EnableParameters or filter descriptors),
 * ERROR_NO_SYSTEM_RESOURCES (a 9th session on a modern provider), ERROR_NOT_SUPPORTED
 * (provider groups), ERROR_WMI_INSTANCE_NOT_FOUND (no such session). */
PFC_ETW_API ULONG WMIAPI EnableTraceEx2(TRACEHANDLE TraceId, LPCGUID ProviderId, ULONG ControlCode,
                                        UCHAR Level, ULONGLONG MatchAnyKeyword,
                                        ULONGLONG MatchAllKeyword, ULONG Timeout,
                                        PENABLE_TRACE_PARAMETERS EnableParameters);

/* Opens a real-time consumer on Logfile->LoggerName (ProcessTraceMode must include
 * PROCESS_TRACE_MODE_REAL_TIME and PROCESS_TRACE_MODE_EVENT_RECORD). Events the session
 * received before the first consumer opened are kept for it. Returns
 * INVALID_PROCESSTRACE_HANDLE and sets GetLastError() on failure. */
PFC_ETW_API TRACEHANDLE WMIAPI OpenTraceW(PEVENT_TRACE_LOGFILEW Logfile);
/* Delivers events to the handles' EventRecordCallbacks, in timestamp order, on the calling
 * thread, until every session has stopped (and its queue is drained) or every handle is
 * closed. StartTime / EndTime are ignored (real time). */
PFC_ETW_API ULONG WMIAPI ProcessTrace(PTRACEHANDLE HandleArray, ULONG HandleCount,
                                      LPFILETIME StartTime, LPFILETIME EndTime);
/* ERROR_CTX_CLOSE_PENDING when ProcessTrace is still running on the handle (it returns
 * soon after; the handle is freed then). */
PFC_ETW_API ULONG WMIAPI CloseTrace(TRACEHANDLE TraceHandle);

/* Classic providers: one session at a time, the last enabler wins, MatchAnyKeyword is
 * truncated to 32 bits, no filtering. RequestAddress gets WMI_ENABLE_EVENTS /
 * WMI_DISABLE_EVENTS on the library's notification thread. */
PFC_ETW_API ULONG WMIAPI RegisterTraceGuidsW(WMIDPREQUEST RequestAddress, PVOID RequestContext,
                                             LPCGUID ControlGuid, ULONG GuidCount,
                                             PTRACE_GUID_REGISTRATION TraceGuidReg,
                                             LPCWSTR MofImagePath, LPCWSTR MofResourceName,
                                             PTRACEHANDLE RegistrationHandle);
PFC_ETW_API ULONG WMIAPI UnregisterTraceGuids(TRACEHANDLE RegistrationHandle);
/* Buffer: the WNODE_HEADER passed to the WMIDPREQUEST callback. */
PFC_ETW_API TRACEHANDLE WMIAPI GetTraceLoggerHandle(PVOID Buffer);
PFC_ETW_API UCHAR WMIAPI GetTraceEnableLevel(TRACEHANDLE TraceHandle);
PFC_ETW_API ULONG WMIAPI GetTraceEnableFlags(TRACEHANDLE TraceHandle);
/* Writes a classic event to the session of a logger handle, if that session still has
 * the provider enabled. ERROR_INVALID_HANDLE for an unknown session. */
PFC_ETW_API ULONG WMIAPI TraceEvent(TRACEHANDLE TraceHandle, PEVENT_TRACE_HEADER EventTrace);

PFC_ETW_EXTERN_C_END

#define StartTrace StartTraceW
#define ControlTrace ControlTraceW
#define StopTrace StopTraceW
#define QueryTrace QueryTraceW
#define QueryAllTraces QueryAllTracesW
#define OpenTrace OpenTraceW
#define RegisterTraceGuids RegisterTraceGuidsW
#define EVENT_TRACE_LOGFILE EVENT_TRACE_LOGFILEW
#define PEVENT_TRACE_LOGFILE PEVENT_TRACE_LOGFILEW

#endif /* PFC_ETW_EVNTRACE_H */
