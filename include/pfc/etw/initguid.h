/* pfc/etw/initguid.h — as the SDK's initguid.h: from here on DEFINE_GUID (pfc_etw_types.h)
 * defines the GUIDs it names instead of declaring them. */
#ifndef INITGUID
#define INITGUID
#endif
#include "pfc_etw_types.h"
#undef DEFINE_GUID
#define DEFINE_GUID PFC_ETW_DEFINE_GUID_VALUE
