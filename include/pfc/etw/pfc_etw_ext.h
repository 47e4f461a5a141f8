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

PFC_ETW_EXTERN_C_END

#endif /* PFC_ETW_PFC_ETW_EXT_H */
