/* tests/tlg/tlg_provider.h — the TraceLogging provider of the tlg tests: its name and
 * its GUID, the EventSource hash of the name (so `pfc trace enable SESSION NAME` and
 * `*NAME` find it; docs/etw.md "TraceLogging"), and a provider group. */
#ifndef PFC_TESTS_TLG_PROVIDER_H
#define PFC_TESTS_TLG_PROVIDER_H
#define TLG_TEST_PROVIDER_NAME "Pfc.Test.TraceLogging"
#define TLG_TEST_PROVIDER_GUID \
  (0x923b6a07, 0xbf8c, 0x5220, 0xcc, 0x89, 0x26, 0x28, 0x64, 0x26, 0x15, 0xb2)
/* The provider group tlg_producer declares (TraceLoggingOptionGroup). */
#define TLG_TEST_GROUP                                                                          \
  TraceLoggingOptionGroup(0x798d0c76, 0x4209, 0x5932, 0xa2, 0xaf, 0x2d, 0x94, 0xa2, 0xe6, 0x6c, \
                          0x45)
#endif
