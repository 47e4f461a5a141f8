/* tests/porting/era_provider.h — the mc-generated provider header (Era.h, which `pfc mc -um`
 * makes from Era.man at build time) and what era_second.c adds to it. Included by both
 * units of the era provider test. */
#ifndef PFC_TESTS_ERA_PROVIDER_H
#define PFC_TESTS_ERA_PROVIDER_H

#include <windows.h>

#include "Era.h"

EXTERN_C_START

/* The second unit's address of the enable bits (the same object as the first unit's). */
ULONG* era_second_enable_bits(void);

/* Writes XSAPI_Warn (Message = message, or "NULL" as mc's template writes for NULL). */
ULONG era_second_write(LPCSTR message);

EXTERN_C_END

#endif /* PFC_TESTS_ERA_PROVIDER_H */
