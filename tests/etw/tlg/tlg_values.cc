// tests/tlg/tlg_values.cc — the C++ writer of the tlg.roundtrip_* tests: the header
// compiled as C++, TraceLoggingValue's overloads and a provider defined with
// TRACELOGGING_DEFINE_PROVIDER_STORAGE and a custom trait, and the SDK header's other
// forms in C++. `tlg_values` registers it (a session enabled it beforehand) and writes
// the events "Values" and "CxxForms".
#include <TraceLoggingProvider.h>

#include <cstdio>

#include "tlg_provider.h"

// The storage form, with a custom provider trait (type 128, a UINT32).
// NOLINTNEXTLINE(misc-use-anonymous-namespace): the SDK macro's static storage (C as well)
TRACELOGGING_DEFINE_PROVIDER_STORAGE(g_storage, TLG_TEST_PROVIDER_NAME, TLG_TEST_PROVIDER_GUID,
                                     TraceLoggingOptionTrait(128, UINT32, (45)));
static TraceLoggingHProvider const g_values = &g_storage;

int main() {
  if (TraceLoggingRegister(g_values) != S_OK) {
    std::fprintf(stderr, "tlg_values: TraceLoggingRegister failed\n");
    return 1;
  }
  if (!TraceLoggingProviderEnabled(g_values, 5, 0)) {
    std::fprintf(stderr, "tlg_values: not enabled by a session\n");
    return 1;
  }
  const GUID guid = {0x76543210, 0xBA98, 0xFEDC, {8, 7, 6, 5, 4, 3, 2, 1}};
  const char* text = "narrow";
  const char16_t* wide = u"wide";
  const int local = 42;
  TraceLoggingWrite(
      g_values, "Values", TraceLoggingValue(true, "Bool"), TraceLoggingValue('c', "Char"),
      TraceLoggingValue(u'w', "Char16"), TraceLoggingValue(static_cast<signed char>(-1), "SChar"),
      TraceLoggingValue(static_cast<unsigned char>(255), "UChar"),
      TraceLoggingValue(static_cast<short>(-2), "Short"),
      TraceLoggingValue(static_cast<unsigned short>(2), "UShort"), TraceLoggingValue(-3, "Int"),
      TraceLoggingValue(3u, "UInt"), TraceLoggingValue(-4L, "Long"),
      TraceLoggingValue(4UL, "ULong"), TraceLoggingValue(-5LL, "LongLong"),
      TraceLoggingValue(5ULL, "ULongLong"), TraceLoggingValue(1.25f, "Float"),
      TraceLoggingValue(2.5, "Double"), TraceLoggingValue(guid, "Guid"),
      TraceLoggingValue(text, "Text"), TraceLoggingValue(wide, "Wide"),
      TraceLoggingValue("literal", "Literal"),
      TraceLoggingValue(static_cast<const void*>(nullptr), "Null"), TraceLoggingValue(local));
  // The SDK header's other forms, compiled as C++ (the C producer writes them all).
  static const UINT8 custom[2] = {0xC0, 0xDE};
  static const UINT8 sid[12] = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0};  // S-1-5-18
  static const char strings[] = {1, 0, 'c', 'x', 'x', 0};
  struct Ansi {
    USHORT Length, MaximumLength;
    const char* Buffer;
  } const ansi = {3, 3, "abc"};
  TraceLoggingWrite(
      g_values, "CxxForms", TraceLoggingString16(u"cxx", "S16"),
      TraceLoggingCustom(custom, 2, 7, (0x0A), 1, "Custom"), TraceLoggingSid(sid, "Sid"),
      TraceLoggingAnsiString(&ansi, "Ansi"),
      TraceLoggingPackedField(strings, sizeof strings, TlgInANSISTRING | TlgInVcount, "Strings"));
  TraceLoggingUnregister(g_values);
  return 0;
}
