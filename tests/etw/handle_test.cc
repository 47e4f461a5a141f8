// tests/etw/handle_test.cc — REGHANDLE values against the enable table (pfc/etw/evntprov.h,
// docs/etw.md "Enable state"): the inline EventEnabled / EventProviderEnabled and the
// quiet return of EventWrite* give ETW's answers for every handle — 0 (what a failed
// EventRegister leaves), every low-16-bit slot pattern under several high parts, a stale
// handle after EventUnregister and one whose slot a new registration reuses — whether or
// not a session enables a registration of the process.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pfc/etw/evntprov.h"
extern "C" {
#include "etw_util.h"
}

// The C harness's entry points (etw_test.h): etw_util.c's sessions report failures here.
extern "C" void etw_test_fail(const char* file, int line, const char* what) {
  ADD_FAILURE_AT(file, line) << what;
}
extern "C" void etw_register_test(const char*, void (*)()) {}

namespace {

// A real-time session (etw_util.h), stopped when the object goes.
class Session {
 public:
  explicit Session(const char16_t* name) : handle_(start_session(name)) {}
  ~Session() { stop_session(handle_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ULONG enable(const GUID& g, ULONG code) {
    return EnableTraceEx2(handle_, &g, code, 4, 0, 0, INFINITE, nullptr);
  }

 private:
  TRACEHANDLE handle_;
};

GUID guid(UCHAR n) { return test_guid(0x4A4E, n); }

ULONGLONG enabled_slots() {
  return __atomic_load_n(&PfcEtwEnableTable->EnabledSlots, __ATOMIC_RELAXED);
}

const EVENT_DESCRIPTOR kEvent = {1, 0, 0, 4, 0, 0, 0};

// What ETW answers for `h` when `live` is the only live handle among those tried and
// `enabled` says whether a session enables it: every entry point, inline and exported.
void expect_etw_answers(REGHANDLE h, REGHANDLE live, bool enabled) {
  SCOPED_TRACE("handle " + std::to_string(h));
  const bool yes = h == live && enabled;
  EXPECT_EQ(EventEnabled(h, &kEvent), yes ? TRUE : FALSE);
  EXPECT_EQ((EventEnabled)(h, &kEvent), yes ? TRUE : FALSE);
  EXPECT_EQ(EventProviderEnabled(h, 4, 0), yes ? TRUE : FALSE);
  EXPECT_EQ((EventProviderEnabled)(h, 4, 0), yes ? TRUE : FALSE);
  const ULONG write = h == live ? ERROR_SUCCESS : ERROR_INVALID_HANDLE;
  EXPECT_EQ(EventWrite(h, &kEvent, 0, nullptr), write);
  EXPECT_EQ(EventWriteTransfer(h, &kEvent, nullptr, nullptr, 0, nullptr), write);
  EXPECT_EQ(EventWriteEx(h, &kEvent, 0, 0, nullptr, nullptr, 0, nullptr), write);
  BOOLEAN types = FALSE;  // EventSetInformation: ERROR_INVALID_PARAMETER for a bad handle
  EXPECT_EQ(EventSetInformation(h, EventProviderUseDescriptorType, &types, sizeof types),
            h == live ? ERROR_SUCCESS : ERROR_INVALID_PARAMETER);
}

// Every slot pattern (the low 16 bits) under the high parts a garbage or stale handle has.
void expect_every_pattern(REGHANDLE live, bool enabled) {
  const ULONGLONG high = live & ~ULONGLONG{0xFFFF};
  const ULONGLONG highs[] = {0, high, high + 0x10000, ~ULONGLONG{0xFFFF}, ULONGLONG{1} << 63};
  for (ULONGLONG top : highs)
    for (ULONGLONG low = 0; low <= 0xFFFF; ++low) {
      const REGHANDLE h = top | low;
      const bool yes = h == live && enabled;
      // The cheap checks for all; every entry point for a sample and the live slot.
      if (EventEnabled(h, &kEvent) != (yes ? TRUE : FALSE) ||
          EventProviderEnabled(h, 4, 0) != (yes ? TRUE : FALSE) ||
          EventWrite(h, &kEvent, 0, nullptr) !=
              (h == live ? ERROR_SUCCESS : ULONG{ERROR_INVALID_HANDLE})) {
        ADD_FAILURE() << "handle " << h << " (enabled: " << enabled << ")";
        return;
      }
      if (low % 4099 == 0 || low == (live & 0xFFFF)) expect_etw_answers(h, live, enabled);
    }
}

TEST(Handles, AreAGenerationAboveASixteenBitSlot) {
  const GUID g = guid(1);
  REGHANDLE a = 0, b = 0;
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &a), ERROR_SUCCESS);
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &b), ERROR_SUCCESS);
  for (REGHANDLE h : {a, b}) {
    EXPECT_LT(h & 0xFFFF, ULONGLONG{PFC_ETW_REGISTRATION_SLOTS});
    EXPECT_GE(h, ULONGLONG{0x10000});
  }
  EXPECT_NE(a & 0xFFFF, b & 0xFFFF);
  EXPECT_EQ(EventUnregister(a), ERROR_SUCCESS);
  EXPECT_EQ(EventUnregister(b), ERROR_SUCCESS);
}

TEST(Handles, ZeroIsInvalidWhateverTheTableHolds) {
  expect_etw_answers(0, ~REGHANDLE{0}, false);  // nothing registered yet
  REGHANDLE failed = 123;
  EXPECT_EQ(EventRegister(nullptr, nullptr, nullptr, &failed), ERROR_INVALID_PARAMETER);
  EXPECT_EQ(failed, 0u);
  // Registrations, slot 0's among them, enabled and not.
  const GUID g = guid(2);
  std::vector<REGHANDLE> hs(3);
  for (REGHANDLE& h : hs) ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &h), ERROR_SUCCESS);
  expect_etw_answers(failed, hs[0], false);
  Session s(u"handle_zero");
  ASSERT_EQ(s.enable(g, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  EXPECT_GE(enabled_slots(), hs.size());
  expect_etw_answers(failed, hs[0], true);
  EXPECT_EQ(EventUnregister(failed), ERROR_INVALID_HANDLE);
  for (REGHANDLE h : hs) EXPECT_EQ(EventUnregister(h), ERROR_SUCCESS);
}

TEST(Handles, EveryLowSixteenBitPatternGetsEtwsAnswer) {
  const GUID g = guid(3);
  REGHANDLE live = 0;
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &live), ERROR_SUCCESS);
  expect_every_pattern(live, false);  // EnabledSlots 0: nothing loads a slot's word
  Session s(u"handle_patterns");
  ASSERT_EQ(s.enable(g, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  ASSERT_NE(enabled_slots(), 0u);
  expect_every_pattern(live, true);  // every slot's word read, the live one nonzero
  EXPECT_EQ(EventUnregister(live), ERROR_SUCCESS);
}

TEST(Handles, StaleAfterUnregisterIsInvalid) {
  const GUID g = guid(4);
  Session s(u"handle_stale");
  ASSERT_EQ(s.enable(g, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  REGHANDLE keep = 0, stale = 0;  // `keep` holds EnabledSlots above 0
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &keep), ERROR_SUCCESS);
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &stale), ERROR_SUCCESS);
  expect_etw_answers(stale, stale, true);
  ASSERT_EQ(EventUnregister(stale), ERROR_SUCCESS);
  EXPECT_EQ(PfcEtwEnableTable->Enabled[stale & 0xFFFF], 0u);
  expect_etw_answers(stale, keep, true);
  EXPECT_EQ(EventUnregister(stale), ERROR_INVALID_HANDLE);
  EXPECT_EQ(EventUnregister(keep), ERROR_SUCCESS);
  expect_etw_answers(keep, 0, true);
}

TEST(Handles, AStaleHandleOfAReusedSlotIsInvalid) {
  const GUID g = guid(5);
  REGHANDLE old = 0, reused = 0;
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &old), ERROR_SUCCESS);
  ASSERT_EQ(EventUnregister(old), ERROR_SUCCESS);
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &reused), ERROR_SUCCESS);
  ASSERT_EQ(reused & 0xFFFF, old & 0xFFFF);  // the lowest free slot again
  ASSERT_NE(reused, old);
  expect_etw_answers(old, reused, false);  // the quiet return checks the handle
  expect_etw_answers(reused, reused, false);
  Session s(u"handle_reused");
  ASSERT_EQ(s.enable(g, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  ASSERT_NE(PfcEtwEnableTable->Enabled[old & 0xFFFF], 0u);  // the slot's word says yes
  expect_etw_answers(old, reused, true);                    // the handle check says no
  expect_etw_answers(reused, reused, true);
  EXPECT_EQ(EventUnregister(old), ERROR_INVALID_HANDLE);
  EXPECT_EQ(EventUnregister(reused), ERROR_SUCCESS);
}

TEST(Handles, EnabledSlotsCountsTheEnabledRegistrations) {
  const GUID g1 = guid(6), g2 = guid(7);
  const ULONGLONG before = enabled_slots();
  REGHANDLE a = 0, b = 0;
  ASSERT_EQ(EventRegister(&g1, nullptr, nullptr, &a), ERROR_SUCCESS);
  ASSERT_EQ(EventRegister(&g2, nullptr, nullptr, &b), ERROR_SUCCESS);
  Session s(u"handle_count");
  ASSERT_EQ(s.enable(g1, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  EXPECT_EQ(enabled_slots(), before + 1);
  ASSERT_EQ(s.enable(g1, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);  // again
  EXPECT_EQ(enabled_slots(), before + 1);
  ASSERT_EQ(s.enable(g2, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  EXPECT_EQ(enabled_slots(), before + 2);
  ASSERT_EQ(s.enable(g1, EVENT_CONTROL_CODE_DISABLE_PROVIDER), ERROR_SUCCESS);
  EXPECT_EQ(enabled_slots(), before + 1);
  EXPECT_EQ(EventEnabled(a, &kEvent), FALSE);
  EXPECT_EQ(EventEnabled(b, &kEvent), TRUE);
  ASSERT_EQ(EventUnregister(b), ERROR_SUCCESS);  // unregistering an enabled one
  EXPECT_EQ(enabled_slots(), before);
  ASSERT_EQ(EventUnregister(a), ERROR_SUCCESS);
}

TEST(Handles, TheMacrosEvaluateEachArgumentOnce) {
  const GUID g = guid(8);
  REGHANDLE h = 0;
  ASSERT_EQ(EventRegister(&g, nullptr, nullptr, &h), ERROR_SUCCESS);
  int handles = 0, descriptors = 0, levels = 0, keywords = 0;
  auto count_all = [&](BOOLEAN expected) {
    handles = descriptors = levels = keywords = 0;
    EXPECT_EQ(EventEnabled((++handles, h), (++descriptors, &kEvent)), expected);
    EXPECT_EQ(EventProviderEnabled((++handles, h), (++levels, UCHAR{4}), (++keywords, 0u)),
              expected);
    EXPECT_EQ(handles, 2);
    EXPECT_EQ(descriptors, 1);
    EXPECT_EQ(levels, 1);
    EXPECT_EQ(keywords, 1);
  };
  if (enabled_slots() == 0) count_all(FALSE);  // the branch that loads no handle
  Session s(u"handle_once");
  ASSERT_EQ(s.enable(g, EVENT_CONTROL_CODE_ENABLE_PROVIDER), ERROR_SUCCESS);
  count_all(TRUE);
  ASSERT_EQ(EventUnregister(h), ERROR_SUCCESS);
}

}  // namespace
