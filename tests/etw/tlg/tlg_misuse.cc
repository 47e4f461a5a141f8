// tests/etw/tlg/tlg_misuse.cc — the C++ side of misuse.sh: as it is, the char16_t forms
// compile; with TLG_MISUSE=N case N passes wchar_t to a string field (1) or to
// TraceLoggingValue (2 a string, 3 a character), or a packed structure in-type (4), which
// must fail to compile with the header's message.
#include <TraceLoggingProvider.h>

#include "tlg_provider.h"

// NOLINTNEXTLINE(misc-use-anonymous-namespace): the SDK macro's static storage (C as well)
TRACELOGGING_DEFINE_PROVIDER(g_provider, TLG_TEST_PROVIDER_NAME, TLG_TEST_PROVIDER_GUID);

void write_misuse();
void write_misuse() {
#if TLG_MISUSE == 1
  TraceLoggingWrite(g_provider, "W", TraceLoggingWideString(L"a", "A"));
#elif TLG_MISUSE == 2
  TraceLoggingWrite(g_provider, "W", TraceLoggingValue(L"a", "A"));
#elif TLG_MISUSE == 3
  TraceLoggingWrite(g_provider, "W", TraceLoggingValue(L'a', "A"));
#elif TLG_MISUSE == 4
  TraceLoggingWrite(g_provider, "W", TraceLoggingPackedMetadata(24, "S"));
#else
  TraceLoggingWrite(g_provider, "W", TraceLoggingWideString(u"a", "A"),
                    TraceLoggingValue(u"b", "B"), TraceLoggingValue(u'c', "C"),
                    TraceLoggingPackedMetadata(TlgInINT32, "D"));
#endif
}
