/* tests/etw/tlg/tlg_misuse.c — compiled by misuse.sh: as it is, correct uses of the
 * fields below compile; with TLG_MISUSE=N case N misuses one, which must fail to compile
 * with the header's message: 1, 2 a wchar_t string (L"...", 32-bit on Linux) in a string
 * field; 3, 4 a packed in-type TDH cannot decode (an array of Binary, a structure). */
#include <TraceLoggingProvider.h>

#include "tlg_provider.h"

TRACELOGGING_DEFINE_PROVIDER(g_provider, TLG_TEST_PROVIDER_NAME, TLG_TEST_PROVIDER_GUID);

#if TLG_MISUSE == 1
#define TEXT16(s) L##s
#elif TLG_MISUSE == 2
#define TEXT16(s) (const wchar_t*)L##s
#else
#define TEXT16(s) u##s
#endif
#if TLG_MISUSE == 3
#define PACKED_IN (TlgInBINARY | TlgInVcount)
#elif TLG_MISUSE == 4
#define PACKED_IN 24
#else
#define PACKED_IN (TlgInUINT8 | TlgInVcount)
#endif

void write_misuse(void);
void write_misuse(void) {
  static const UINT8 bytes[3] = {2, 0, 7};
  TraceLoggingWrite(g_provider, "W", TraceLoggingWideString(TEXT16("a"), "A"),
                    TraceLoggingCountedString16(TEXT16("bc"), 2, "B"),
                    TraceLoggingPackedField(bytes, 3, PACKED_IN, "P"));
}
