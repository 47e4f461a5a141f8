/* pfc/etw/pfc_etw_ext.h — pfc's extensions of the ETW-compatible C API: what a controller or
 * consumer needs beyond Windows' functions, exported from libpfc_etw.so like them
 * (docs/etw.md "pfc extensions"). The pfc command uses these instead of the library's
 * internals. Every function is thread-safe and returns a Win32 error code. */
#ifndef PFC_ETW_PFC_ETW_EXT_H
#define PFC_ETW_PFC_ETW_EXT_H

#include "evntcons.h"
#include "evntrace.h"

/* EnableProperty bits EnableTraceEx2 refuses with ERROR_NOT_SUPPORTED (docs/etw.md "Error
 * codes"); every other bit is passed through. */
#define PFC_ETW_UNSUPPORTED_ENABLE_PROPERTIES EVENT_ENABLE_PROPERTY_PROVIDER_GROUP

/* The longest session name and log file name StartTraceW takes, in UTF-16 units without
 * the terminator (a longer one: docs/etw.md "Error codes"): room for an
 * EVENT_TRACE_PROPERTIES buffer that QueryTraceW or ControlTraceW fill with both. */
#define PFC_ETW_MAX_SESSION_NAME_CHARS 1023
#define PFC_ETW_MAX_LOG_FILE_NAME_CHARS 4096

/* The states of a routing program in the namespace's cache (PfcEnumerateTracePrograms). */
#define PFC_TRACE_PROGRAM_COMPILING 0 /* requested: no code and no verdict yet */
#define PFC_TRACE_PROGRAM_READY 1     /* its code file is there and passes its checks */
#define PFC_TRACE_PROGRAM_FAILED 2    /* no usable code: the reason says why */

/* One routing program of the namespace's cache of compiled programs (docs/namespace.md
 * "Compiled programs"). Each ...Offset is the byte offset, from the start of the buffer
 * PfcEnumerateTracePrograms filled, of a UTF-8 text with its NUL. */
typedef struct _PFC_TRACE_PROGRAM_INFO {
  ULONGLONG CodeBytes;           /* the code file's size; 0 without one */
  ULONGLONG CompileMicroseconds; /* READY: the compile time its code file records; else 0 */
  ULONG State;                   /* PFC_TRACE_PROGRAM_* */
  ULONG Processes;               /* live processes routing with its code */
  ULONG Databases;               /* string-map databases of its .hsdb file; 0 without one, or
                                    when the file fails its check */
  ULONG KeyOffset;               /* the content key: 32 lowercase hex digits */
  ULONG ProviderOffset;          /* the provider's GUID, "{...}"; "" when the request is gone */
  ULONG ReasonOffset;            /* FAILED: why ("FILE: ..." or the compile service's verdict) */
  ULONG DatabasesReasonOffset;   /* why the .hsdb file fails the check a provider makes, "" */
  ULONG Reserved;
} PFC_TRACE_PROGRAM_INFO, *PPFC_TRACE_PROGRAM_INFO;

typedef struct _PFC_TRACE_PROGRAM_ENUMERATION_INFO {
  ULONG NumberOfPrograms;
  ULONG Reserved;
  PFC_TRACE_PROGRAM_INFO Programs[ANYSIZE_ARRAY]; /* in key order */
} PFC_TRACE_PROGRAM_ENUMERATION_INFO, *PPFC_TRACE_PROGRAM_ENUMERATION_INFO;

/* PFC_TRACE_SCHEMA_INFO Flags. */
#define PFC_TRACE_SCHEMA_LEGACY 0x1 /* a classic provider's schema */
#define PFC_TRACE_SCHEMA_TRACELOGGING                         \
  0x2 /* a TraceLogging provider's: events told apart by name \
       */
#define PFC_TRACE_SCHEMA_UNDECODED                      \
  0x4 /* a log file's schema that does not decode: only \
         ProviderId and Kind are set */

/* PFC_TRACE_SCHEMA_FIELD CountKind and LengthKind. */
#define PFC_TRACE_EXTENT_NONE 0  /* no count (a scalar) or no length */
#define PFC_TRACE_EXTENT_FIXED 1 /* Count / Length is the constant */
#define PFC_TRACE_EXTENT_FIELD 2 /* Count / Length is the index of an earlier field holding it */

/* One payload field of a PFC_TRACE_SCHEMA_EVENT. */
typedef struct _PFC_TRACE_SCHEMA_FIELD {
  ULONG NameOffset; /* UTF-8 text with its NUL */
  USHORT InType;    /* TDH_INTYPE */
  UCHAR CountKind;  /* PFC_TRACE_EXTENT_*: an array of Count elements when not NONE */
  UCHAR LengthKind; /* PFC_TRACE_EXTENT_*: strings in characters, binary in bytes */
  ULONG Count;
  ULONG Length;
} PFC_TRACE_SCHEMA_FIELD, *PPFC_TRACE_SCHEMA_FIELD;

/* One event of a PFC_TRACE_SCHEMA_INFO. */
typedef struct _PFC_TRACE_SCHEMA_EVENT {
  EVENT_DESCRIPTOR Descriptor;
  ULONG NameOffset; /* UTF-8 text with its NUL */
  ULONG FieldCount;
  ULONG FieldsOffset; /* its first PFC_TRACE_SCHEMA_FIELD, FieldCount of them, in payload order */
  ULONG Reserved;
} PFC_TRACE_SCHEMA_EVENT, *PPFC_TRACE_SCHEMA_EVENT;

/* One provider's schema. Every ...Offset is the byte offset, from the start of the buffer
 * PfcEnumerateTraceSchemas filled, of what it names. */
typedef struct _PFC_TRACE_SCHEMA_INFO {
  GUID ProviderId;
  ULONG NameOffset; /* UTF-8 text with its NUL ("" when unknown) */
  ULONG Flags;      /* PFC_TRACE_SCHEMA_* */
  ULONG Kind;       /* a log file's schema kind (docs/logfile.md section 2); 0 for a session's */
  ULONG EventCount;
  ULONG EventsOffset; /* its first PFC_TRACE_SCHEMA_EVENT (8-byte aligned), EventCount of them */
  ULONG Reserved;
} PFC_TRACE_SCHEMA_INFO, *PPFC_TRACE_SCHEMA_INFO;

typedef struct _PFC_TRACE_SCHEMA_ENUMERATION_INFO {
  ULONG NumberOfSchemas;
  ULONG SchemasLeftOut; /* a log file: schemas its writer had to leave out; else 0 */
  PFC_TRACE_SCHEMA_INFO Schemas[ANYSIZE_ARRAY];
} PFC_TRACE_SCHEMA_ENUMERATION_INFO, *PPFC_TRACE_SCHEMA_ENUMERATION_INFO;

PFC_ETW_EXTERN_C_BEGIN

/* The text of a log-file reading problem, UTF-8 with its NUL, into Buffer (BufferSize
 * bytes; Buffer may be NULL when BufferSize is 0); *TextSize gets the bytes the text needs
 * with its NUL (1 for none: ""); *Damaged (optional) whether the problem is damage.
 * TraceHandle INVALID_PROCESSTRACE_HANDLE: why the calling thread's last OpenTraceW of a log
 * file failed with ERROR_BAD_FORMAT ("FILE: not a pfc trace log file ...") — "" when that
 * open had another outcome. A handle from OpenTraceW (after ProcessTrace, before CloseTrace): why
 * reading its file ended early — the damage behind ProcessTrace's ERROR_FILE_CORRUPT
 * (*Damaged TRUE), or the warning that the file was not closed or that a followed circular
 * file overwrote buffers (*Damaged FALSE); "" when the file was read to its end or the
 * handle reads no file. Returns ERROR_INVALID_PARAMETER (NULL TextSize, or NULL Buffer
 * with a BufferSize), ERROR_INVALID_HANDLE (no open consumer handle), ERROR_MORE_DATA
 * (BufferSize smaller than *TextSize: nothing written). */
PFC_ETW_API ULONG WMIAPI PfcGetTraceProblem(TRACEHANDLE TraceHandle, PCHAR Buffer, ULONG BufferSize,
                                            PULONG TextSize, PBOOLEAN Damaged);

/* Why this process cannot use the trace namespace (docs/namespace.md): its directory cannot
 * be opened or created, or its state file cannot be read ("cannot open trace directory 'D':
 * Permission denied"), UTF-8 with its NUL, into Buffer (BufferSize bytes; Buffer may be NULL
 * when BufferSize is 0); *TextSize gets the bytes the text needs with its NUL (1 for none:
 * "" when the namespace is usable). What an ERROR_ACCESS_DENIED of the other functions
 * means. Returns ERROR_INVALID_PARAMETER (NULL TextSize, or NULL Buffer with a BufferSize),
 * ERROR_MORE_DATA (BufferSize smaller than *TextSize: nothing written). */
PFC_ETW_API ULONG WMIAPI PfcGetNamespaceProblem(PCHAR Buffer, ULONG BufferSize, PULONG TextSize);

/* Why the calling thread's last StartTraceW failed, where its code alone does not say it
 * ("log file 'F' is owned by another user ...", "... has 2 hard links ...", a circular
 * MaximumFileSize that holds fewer than two buffers, ...), UTF-8 with its NUL; "" when that
 * call succeeded or its code says all. Buffer, BufferSize, TextSize and the return codes as
 * PfcGetNamespaceProblem's. */
PFC_ETW_API ULONG WMIAPI PfcGetStartTraceProblem(PCHAR Buffer, ULONG BufferSize, PULONG TextSize);

/* Every routing program of the namespace's cache of compiled programs, in key order, with
 * the checks a provider process makes of its files (a code or database file that fails
 * them shows why), into Buffer: a PFC_TRACE_PROGRAM_ENUMERATION_INFO, its texts after the
 * array. *BufferSize is the buffer's size in bytes on input and the bytes needed on
 * output; Buffer may be NULL when *BufferSize is 0. Returns ERROR_INVALID_PARAMETER (NULL
 * BufferSize, or NULL Buffer with a *BufferSize), ERROR_INSUFFICIENT_BUFFER (too small:
 * nothing written; call again with *BufferSize bytes, which may grow as programs are
 * added), ERROR_ACCESS_DENIED (the namespace directory cannot be opened or created:
 * PfcGetNamespaceProblem says why). */
PFC_ETW_API ULONG WMIAPI PfcEnumerateTracePrograms(PPFC_TRACE_PROGRAM_ENUMERATION_INFO Buffer,
                                                   PULONG BufferSize);

/* The events the session TraceHandle (a handle StartTraceW gave, or the
 * Wnode.HistoricalContext ControlTraceW or QueryAllTracesW filled) has received so far, over
 * the buffers of every process writing to it (read, pending or in flight; docs/cli.md "pfc
 * trace" `events`), into *EventCount: the count ETW's QUERY does not report. Returns
 * ERROR_INVALID_PARAMETER (NULL EventCount), ERROR_WMI_INSTANCE_NOT_FOUND (no such session),
 * ERROR_ACCESS_DENIED (the namespace cannot be used: PfcGetNamespaceProblem says why). */
PFC_ETW_API ULONG WMIAPI PfcQueryTraceEventCount(TRACEHANDLE TraceHandle, PULONGLONG EventCount);

/* ControlTraceW(EVENT_TRACE_CONTROL_STOP) that also gives the stopped session's final event
 * count in *EventCount (the count PfcQueryTraceEventCount reports while it runs: every event
 * its rings received, read or not), which EVENT_TRACE_PROPERTIES does not carry. Arguments,
 * Properties as filled and return codes as ControlTraceW's; also ERROR_INVALID_PARAMETER
 * for a NULL EventCount (nothing stopped). */
PFC_ETW_API ULONG WMIAPI PfcStopTrace(TRACEHANDLE TraceHandle, LPCWSTR InstanceName,
                                      PEVENT_TRACE_PROPERTIES Properties, PULONGLONG EventCount);

/* The provider GUIDs the session TraceHandle (as PfcQueryTraceEventCount's) enables, in the
 * order of its enables (EnumerateTraceGuidsEx lists them by each GUID's oldest enable in the
 * namespace), into Buffer: *BufferSize bytes on input, the bytes needed (16 per GUID) on
 * output; Buffer may be NULL when *BufferSize is 0. Returns ERROR_INVALID_PARAMETER (NULL
 * BufferSize, or NULL Buffer with a *BufferSize), ERROR_INSUFFICIENT_BUFFER (too small:
 * nothing written), ERROR_WMI_INSTANCE_NOT_FOUND (no such session), ERROR_ACCESS_DENIED (the
 * namespace cannot be used: PfcGetNamespaceProblem says why). */
PFC_ETW_API ULONG WMIAPI PfcEnumerateTraceProviders(TRACEHANDLE TraceHandle, LPGUID Buffer,
                                                    PULONG BufferSize);

/* Applies every enable of the session SessionName (UTF-8) of a filter script to the trace
 * session TraceHandle, as `pfc trace enable --script` does (docs/cli.md "pfc trace"): per
 * enable, in script order, EnableTraceEx2(ENABLE_PROVIDER) with its level, keywords,
 * properties, its PID, name-list, EVENT_ID and STACKWALK filters as ETW's descriptors, and
 * its payload filters with the provider's schema in the pfc enable extension (docs/etw.md
 * "The pfc enable extension"), which the library alone writes. ScriptText: the script's
 * ScriptTextSize bytes of UTF-8 (NULL when 0); ScriptPath (optional, UTF-8): its file name,
 * the one its diagnostics name, and its `import`s are read relative to its directory.
 * Every enable is checked before any is applied; Timeout as EnableTraceEx2's, for each.
 * Returns ERROR_INVALID_PARAMETER (NULL ScriptText with a size, NULL SessionName),
 * ERROR_INVALID_DATA (the script has errors), ERROR_NOT_FOUND (no such session in the
 * script), ERROR_NOT_SUPPORTED (an enable ETW's descriptors cannot carry: event-name or
 * stack level/keyword filters, a list over a descriptor's limit, an extension over 256 KiB)
 * — for these three PfcGetEnableTraceScriptProblem says why, and nothing was enabled —
 * ERROR_TIMEOUT (all applied, some provider process late), or the first failing
 * EnableTraceEx2's code (the enables before it stay applied). */
PFC_ETW_API ULONG WMIAPI PfcEnableTraceScript(TRACEHANDLE TraceHandle, PCSTR ScriptText,
                                              ULONG ScriptTextSize, PCSTR ScriptPath,
                                              PCSTR SessionName, ULONG Timeout);

/* Why the calling thread's last PfcEnableTraceScript failed with ERROR_INVALID_DATA (the
 * script's first error, "PATH:LINE:COL: error: MESSAGE"), ERROR_NOT_FOUND ("no session named
 * 'S' in the script") or ERROR_NOT_SUPPORTED ("session 'S' enables 'P' with WHAT"), UTF-8
 * with its NUL; "" after any other outcome. Buffer, BufferSize, TextSize and the return
 * codes as PfcGetNamespaceProblem's. */
PFC_ETW_API ULONG WMIAPI PfcGetEnableTraceScriptProblem(PCHAR Buffer, ULONG BufferSize,
                                                        PULONG TextSize);

/* The provider schemas of one trace, into Buffer: a PFC_TRACE_SCHEMA_ENUMERATION_INFO, its
 * event and field tables and texts after the array. Give exactly one of LoggerName — a
 * real-time session: the schemas its enables published (pfc enable extensions, in enable
 * order; none for an unknown session) — and LogFileName — a log file: the schemas it
 * records (docs/logfile.md section 2), in its order, those that do not decode as
 * PFC_TRACE_SCHEMA_UNDECODED entries. *BufferSize is the buffer's size in bytes on input
 * and the bytes needed on output; Buffer may be NULL when *BufferSize is 0. Returns
 * ERROR_INVALID_PARAMETER (both names or neither, a name empty or over its limit, NULL
 * BufferSize, or NULL Buffer with a *BufferSize), ERROR_INSUFFICIENT_BUFFER (too small:
 * nothing written), ERROR_ACCESS_DENIED (the namespace or the file cannot be read),
 * ERROR_FILE_NOT_FOUND (no such log file), ERROR_BAD_FORMAT (not a log file pfc reads:
 * OpenTraceW and PfcGetTraceProblem say why). */
PFC_ETW_API ULONG WMIAPI PfcEnumerateTraceSchemas(LPCWSTR LoggerName, LPCWSTR LogFileName,
                                                  PPFC_TRACE_SCHEMA_ENUMERATION_INFO Buffer,
                                                  PULONG BufferSize);

PFC_ETW_EXTERN_C_END

#endif /* PFC_ETW_PFC_ETW_EXT_H */
