/* tests/etw/tlg_script/tlg_script_producer.c — the writing process of the
 * etw.tlg_script_* tests (tlg_script.sh): a TraceLogging provider whose events a script
 * filters by event name and field name (docs/language.md §3 "TraceLogging providers").
 * It only registers and writes; a session enabled the provider beforehand. Every event
 * carries its number in Seq, its first field, so the expected file says which ones a
 * session records. The script declares Name before Count; most events write Count first.
 * Events named Moved carry a structure Point whose member X the script filters on. */
#include <TraceLoggingProvider.h>
#include <stdio.h>

TRACELOGGING_DEFINE_PROVIDER(g_provider, "Pfc.Test.TlgScript",
                             (0x6d1b7a2c, 0x0000, 0x4000, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa0,
                              0x01));

int main(void) {
  if (TraceLoggingRegister(g_provider) != 0) {
    fprintf(stderr, "tlg_script_producer: TraceLoggingRegister failed\n");
    return 1;
  }
  static const char* const names[] = {"x-a", "b", "ax", "y", "xx", "nox"};
  unsigned seq = 0;
  for (unsigned i = 0; i < 6; ++i) /* Count i: the script wants Count > 3 and an "x" */
    TraceLoggingWrite(g_provider, "Sent", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                      TraceLoggingUInt32(i, "Count"), TraceLoggingString(names[i], "Name"));
  /* Another field between the two: found by name. */
  TraceLoggingWrite(g_provider, "Sent", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingString("x", "Name"), TraceLoggingWideString(u"pad", "Pad"),
                    TraceLoggingUInt32(7, "Count"));
  /* Count of another type, and Name missing: these do not match. */
  TraceLoggingWrite(g_provider, "Sent", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingUInt64(9, "Count"), TraceLoggingString("x", "Name"));
  TraceLoggingWrite(g_provider, "Sent", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingUInt32(9, "Count"));
  /* Another event name: not filtered by the Sent filter. */
  TraceLoggingWrite(g_provider, "Other", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingUInt32(0, "Count"));
  /* "sent" is another name (names compare exactly): not filtered either. */
  TraceLoggingWrite(g_provider, "sent", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingUInt32(0, "Count"), TraceLoggingString("", "Name"));
  /* An array: exported to CTF as a raw class named by the event. */
  static const UINT32 vals[2] = {1, 2};
  TraceLoggingWrite(g_provider, "Arr", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingUInt32Array(vals, 2, "Vals"));
  /* Structures: the script wants Point.X > 0, a member named by its path. (Exported to CTF
   * as raw classes, like the array.) */
  TraceLoggingWrite(g_provider, "Moved", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingStruct(2, "Point"), TraceLoggingInt32(5, "X"),
                    TraceLoggingInt32(-1, "Y"));
  TraceLoggingWrite(g_provider, "Moved", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingStruct(2, "Point"), TraceLoggingInt32(0, "X"),
                    TraceLoggingInt32(1, "Y"));
  /* The member after another one: found by path. */
  TraceLoggingWrite(g_provider, "Moved", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingStruct(2, "Point"), TraceLoggingInt32(2, "Y"),
                    TraceLoggingInt32(3, "X"));
  /* The structure lacks X, or X is no member: these do not match. */
  TraceLoggingWrite(g_provider, "Moved", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingStruct(1, "Point"), TraceLoggingInt32(4, "Y"));
  TraceLoggingWrite(g_provider, "Moved", TraceLoggingLevel(4), TraceLoggingUInt32(seq++, "Seq"),
                    TraceLoggingInt32(4, "Point"), TraceLoggingInt32(4, "X"));
  TraceLoggingUnregister(g_provider);
  return 0;
}
