/* pfc/etw/wmistr.h — the SDK's wmistr.h declares WNODE_HEADER and the WNODE_FLAG_* values;
 * here they are part of evntrace.h, which this header includes (mc output includes
 * <wmistr.h> before <evntrace.h>). Compiles as C11 and C++. */
#ifndef PFC_ETW_WMISTR_H
#define PFC_ETW_WMISTR_H

#include "evntrace.h"

#endif /* PFC_ETW_WMISTR_H */
