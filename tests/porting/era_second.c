/* tests/porting/era_second.c — the second translation unit of the era provider test
 * (era_provider.c): it includes the mc-generated header again. */
#include "era_provider.h"

ULONG* era_second_enable_bits(void) { return Microsoft_Xbox_Services_TracingEnableBits; }

ULONG era_second_write(LPCSTR message) {
  if (!EventEnabledXSAPI_Warn()) return ERROR_INVALID_FUNCTION; /* the bits are shared */
  return EventWriteXSAPI_Warn("second unit", message);
}
