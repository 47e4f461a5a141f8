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

PFC_ETW_EXTERN_C_END

#endif /* PFC_ETW_PFC_ETW_EXT_H */
