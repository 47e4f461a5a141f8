/* tests/mc/widget_provider.c — a provider built from the header `pfc mc -um` generates for
 * Widget.man (no committed header: tests/mc/CMakeLists.txt generates it at build time),
 * compiled with the porting flags (docs/porting.md). Run by mc_provider.sh after a session
 * enabled Contoso-Widget at level 4 with keyword 0x1: it checks the enable bits
 * (EventEnabled<Event>), writes WidgetPart and WidgetOrder with typed arguments (every
 * field type of the manifest, a length-referenced binary, a counted array, a SID), calls the
 * disabled events (nothing is written), and unregisters; then writes two events of the
 * second provider, Contoso-Gadget (enabled at level 5). mc_provider.sh reads the events
 * back with `pfc trace show --schema Widget.man` and compares them with expected.jsonl. */
#include <stdio.h>
#include <windows.h>

#include "Widget.h"

static int failed(const char* what, unsigned long rc) {
  printf("widget_provider: %s failed (%lu)\n", what, rc);
  return 1;
}

static ULONG write_part(void) {
  return EventWriteWidgetPart(u"gear", "cog", -5, 200, -300, 8080, -70000, 1, -5000000000LL,
                              18000000000000000000ULL, 0.5f, 2.25, TRUE, 0x3,
                              0xdeadbeefcafef00dULL);
}

static ULONG write_order(void) {
  static const GUID order = {0x01234567, 0x89ab, 0xcdef, {1, 2, 3, 4, 5, 6, 7, 8}};
  static const BYTE blob[3] = {0xa1, 0xb2, 0xc3};
  static const unsigned int sizes[4] = {10, 20, 30, 40};
  static const BYTE local_system[12] = {1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0}; /* S-1-5-18 */
  FILETIME placed;
  SYSTEMTIME due;
  placed.dwLowDateTime = 0x89abcdefu;
  placed.dwHighDateTime = 0x01234567u;
  ZeroMemory(&due, sizeof due);
  due.wYear = 2026;
  due.wMonth = 11;
  due.wDay = 28;
  due.wHour = 10;
  return EventWriteWidgetOrder(&order, (const void*)0x1234, &placed, &due, 3, blob, 4, sizes,
                               local_system);
}

int main(void) {
  ULONG rc = EventRegisterContoso_Widget();
  if (rc != ERROR_SUCCESS || Contoso_WidgetHandle == 0) return failed("EventRegister", rc);
  /* The session enabled level 4, keyword 0x1 before the provider registered: the enable
   * callback ran during EventRegister. */
  if (!EventEnabledWidgetPart() || !EventEnabledWidgetOrder() || EventEnabledWidgetSpin() ||
      EventEnabledWidgetPartVerbose() || CONTOSO_WIDGET_Context.Level != 4 ||
      !MCGEN_ENABLE_CHECK(CONTOSO_WIDGET_Context, WidgetPart))
    return failed("the enable bits", Contoso_WidgetEnableBits[0]);
  if ((rc = write_part()) != ERROR_SUCCESS) return failed("EventWriteWidgetPart", rc);
  if ((rc = write_order()) != ERROR_SUCCESS) return failed("EventWriteWidgetOrder", rc);
  /* Disabled: the macros return ERROR_SUCCESS without writing. */
  if ((rc = EventWriteWidgetSpin()) != ERROR_SUCCESS) return failed("EventWriteWidgetSpin", rc);
  rc = EventWriteWidgetPartVerbose(NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, FALSE, 0, 0);
  if (rc != ERROR_SUCCESS) return failed("EventWriteWidgetPartVerbose", rc);
  rc = EventUnregisterContoso_Widget();
  if (rc != ERROR_SUCCESS || Contoso_WidgetHandle != 0) return failed("EventUnregister", rc);

  /* The second provider (no symbol: its GUID and context are named after it), enabled at
   * level 5. */
  rc = EventRegisterContoso_Gadget();
  if (rc != ERROR_SUCCESS) return failed("EventRegisterContoso_Gadget", rc);
  if (!EventEnabledGadgetTick() || !EventEnabledGadgetTock() || Contoso_Gadget_Context.Level != 5)
    return failed("the second provider's enable bits", Contoso_GadgetEnableBits[0]);
  if ((rc = EventWriteGadgetTick(7)) != ERROR_SUCCESS) return failed("EventWriteGadgetTick", rc);
  if ((rc = EventWriteGadgetTock(0x10)) != ERROR_SUCCESS) return failed("EventWriteGadgetTock", rc);
  rc = EventUnregisterContoso_Gadget();
  if (rc != ERROR_SUCCESS) return failed("EventUnregisterContoso_Gadget", rc);
  printf("widget_provider: registered, enabled, wrote 4 events, unregistered\n");
  return 0;
}
