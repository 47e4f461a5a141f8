/* tests/etw/layout_c.c — the headers compile as C11 with -Wall -Werror and have the x64
 * Windows layouts (layout_asserts.h, checked at compile time); the inline helpers of
 * evntprov.h and the pure legacy-handle accessors behave as in the SDK. */
#include <string.h>

#include "etw_test.h"
#include "layout_asserts.h"

TEST(event_desc_create_fills_every_field) {
  EVENT_DESCRIPTOR d;
  memset(&d, 0xAB, sizeof d);
  EventDescCreate(&d, 0x1234, 2, 16, TRACE_LEVEL_WARNING, 0x4321, EVENT_TRACE_TYPE_START,
                  0x8000000000000001ull);
  CHECK_EQ(d.Id, 0x1234);
  CHECK_EQ(d.Version, 2);
  CHECK_EQ(d.Channel, 16);
  CHECK_EQ(d.Level, 3);
  CHECK_EQ(d.Task, 0x4321);
  CHECK_EQ(d.Opcode, 1);
  CHECK_EQ(d.Keyword, 0x8000000000000001ull);
  EventDescZero(&d);
  CHECK_EQ(d.Id + d.Version + d.Channel + d.Level + d.Task + d.Opcode, 0);
  CHECK_EQ(d.Keyword, 0);
}

TEST(event_data_desc_create_points_at_the_data) {
  EVENT_DATA_DESCRIPTOR d;
  memset(&d, 0xAB, sizeof d);
  const char text[] = "abc";
  EventDataDescCreate(&d, text, sizeof text);
  CHECK_EQ(d.Ptr, (uintptr_t)text);
  CHECK_EQ(d.Size, 4);
  CHECK_EQ(d.Reserved, 0);
  CHECK_EQ(d.Type, EVENT_DATA_DESCRIPTOR_TYPE_NONE);
}

TEST(guid_equality_and_guid_null) {
  GUID a = {0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}};
  GUID b = a;
  CHECK(IsEqualGUID(&a, &b));
  b.Data4[7] = 0;
  CHECK(!IsEqualGUID(&a, &b));
  GUID zero;
  memset(&zero, 0, sizeof zero);
  CHECK(IsEqualGUID(&GUID_NULL, &zero));
  CHECK_EQ(sizeof(WCHAR), 2);
  const WCHAR name[] = u"x\u00e9";
  CHECK_EQ(name[1], 0xE9);
}

TEST(legacy_logger_handle_is_a_trace_enable_context) {
  TRACE_ENABLE_CONTEXT ctx = {7, TRACE_LEVEL_VERBOSE, 0, 0xDEADBEEFu};
  WNODE_HEADER w;
  memset(&w, 0, sizeof w);
  memcpy(&w.HistoricalContext, &ctx, sizeof ctx);
  TRACEHANDLE h = GetTraceLoggerHandle(&w);
  CHECK_EQ(h & 0xFFFF, 7);
  CHECK_EQ(GetTraceEnableLevel(h), TRACE_LEVEL_VERBOSE);
  CHECK_EQ(GetTraceEnableFlags(h), 0xDEADBEEFu);
  SetLastError(0);
  CHECK_EQ(GetTraceLoggerHandle(NULL), INVALID_PROCESSTRACE_HANDLE);
  CHECK_EQ(GetLastError(), ERROR_INVALID_PARAMETER);
}
