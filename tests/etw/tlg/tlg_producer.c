/* tests/tlg/tlg_producer.c — the writing process of the tlg.roundtrip_* tests
 * (roundtrip.sh): every field macro of <TraceLoggingProvider.h>, compiled as C11, written
 * through a real session. `tlg_producer LOGFILE` starts the file session "pfc-tlg" on
 * LOGFILE, enables the provider, writes and stops; `tlg_producer --provider-only` only
 * registers and writes (a session enabled the provider beforehand). The consumer
 * (tlg_consumer.c) decodes the events with TDH in another process. Sources of the
 * encodings and the texts in expected_*.txt:
 *   [Tlp] learn.microsoft.com "TraceLoggingProvider.h header" and its macro pages
 *         (TraceLoggingCustom, TraceLoggingOptionGroup, TraceLoggingWriteEx, the wrapper
 *         macros' parameters); "Provider Traits" (the traits' chunk layout, group type 1)
 *   [In]  learn.microsoft.com "InputType Complex Type" (manifest schema), Remarks: the
 *         in-types' sizes and default out-types (SID as a string, GUID in braces)
 *   [Out] learn.microsoft.com "OutputType Complex Type": IPv6, SocketAddress, Json, the
 *         date-time forms; texts Microsoft does not spell out (dates, binary as 0x…) are
 *         pfc's (docs/porting.md "ETW differences")
 *   [Tei] learn.microsoft.com "EVENT_PROPERTY_INFO structure (tdh.h)": customSchemaType */
#include <TraceLoggingProvider.h>
#include <evntrace.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tlg_provider.h"

TRACELOGGING_DEFINE_PROVIDER(g_provider, TLG_TEST_PROVIDER_NAME, TLG_TEST_PROVIDER_GUID,
                             TLG_TEST_GROUP);

#define FAIL_IF(cond, what)                          \
  do {                                               \
    if (cond) {                                      \
      fprintf(stderr, "tlg_producer: %s\n", (what)); \
      return 1;                                      \
    }                                                \
  } while (0)

static void write_scalars(void) {
  int evaluated = 0;
  TraceLoggingWrite(
      g_provider, "Scalars", TraceLoggingLevel(4), TraceLoggingKeyword(0x10), TraceLoggingOpcode(1),
      TraceLoggingDescription("every scalar"), TraceLoggingInt8(-8, "I8"),
      TraceLoggingUInt8(200, "U8"), TraceLoggingInt16(-1600, "I16"),
      TraceLoggingUInt16(60000, "U16"), TraceLoggingInt32(-320000, "I32"),
      TraceLoggingUInt32(4000000000u, "U32"), TraceLoggingInt64(-6400000000ll, "I64"),
      TraceLoggingUInt64(18000000000000000000ull, "U64"), TraceLoggingIntPtr(-5, "IPtr"),
      TraceLoggingUIntPtr(5, "UPtr"), TraceLoggingLong(-7, "L"), TraceLoggingULong(7, "UL"),
      TraceLoggingHexInt8(0x1F, "H8"), TraceLoggingHexUInt8(0xF1, "HU8"),
      TraceLoggingHexInt16(0x1234, "H16"), TraceLoggingHexUInt16(0xABCD, "HU16"),
      TraceLoggingHexInt32(0x12345678, "H32"), TraceLoggingHexUInt32(0xDEADBEEFu, "HU32"),
      TraceLoggingHexInt64(0x123456789All, "H64"),
      TraceLoggingHexUInt64(0xFEDCBA9876543210ull, "HU64"), TraceLoggingHexIntPtr(0x10, "HIPtr"),
      TraceLoggingHexUIntPtr(0x20, "HUPtr"), TraceLoggingHexLong(0x30, "HL"),
      TraceLoggingHexULong(0x40, "HUL"), TraceLoggingFloat32(1.5f, "F32"),
      TraceLoggingFloat64(-0.25, "F64"), TraceLoggingBool(1, "B32"), TraceLoggingBoolean(0, "B8"),
      TraceLoggingChar('x', "C"), TraceLoggingWChar(u'\u00e9', "WC"), TraceLoggingPid(1234, "Pid"),
      TraceLoggingTid(5678, "Tid"), TraceLoggingPort(0x5000, "Port"),
      TraceLoggingIPv4Address(0x0302010Au, "IPv4"), TraceLoggingWinError(5, "Win32"),
      TraceLoggingNTStatus(0, "Status"), TraceLoggingHResult(-2147467259, "HR"),
      TraceLoggingPointer((void*)(UINT_PTR)0xABC0, "Ptr"),
      TraceLoggingCodePointer((void*)(UINT_PTR)0x4000, "Code"),
      TraceLoggingInt32(++evaluated, "Evaluated"));
}

static void write_texts(void) {
  static const GUID guid = {0x01234567, 0x89AB, 0xCDEF, {1, 2, 3, 4, 5, 6, 7, 8}};
  static const UCHAR bytes[3] = {0x00, 0x0F, 0xA0};
  static const UCHAR v6[16] = {0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  FILETIME ft;
  ft.dwLowDateTime = (DWORD)(133485408000000001ull & 0xFFFFFFFFu);
  ft.dwHighDateTime = (DWORD)(133485408000000001ull >> 32);
  SYSTEMTIME st;
  memset(&st, 0, sizeof st);
  st.wYear = 2023;
  st.wMonth = 12;
  st.wDay = 31;
  st.wHour = 23;
  st.wMinute = 59;
  st.wSecond = 58;
  st.wMilliseconds = 7;
  const char* null_text = NULL;
  TraceLoggingWrite(
      g_provider, "Texts", TraceLoggingEventTag(0x0ABCDEF), TraceLoggingString("plain", "S"),
      TraceLoggingString(null_text, "Null"), TraceLoggingUtf8String("gr\xc3\xbc\xc3\x9f", "U8S"),
      TraceLoggingWideString(u"wide \u00e9", "WS"), TraceLoggingCountedString("abcdef", 3, "CS"),
      TraceLoggingCountedUtf8String("\xc3\xa9t\xc3\xa9", 5, "CU8"),
      TraceLoggingCountedWideString(u"counted", 5, "CWS"),
      TraceLoggingCountedString("", 0, "CEmpty"), TraceLoggingBinary(bytes, 3, "Bin"),
      TraceLoggingBinary(bytes, 0, "BinEmpty"), TraceLoggingIPv6Address(v6, "IPv6"),
      TraceLoggingGuid(guid, "G"), TraceLoggingFileTime(ft, "FT"),
      TraceLoggingFileTimeUtc(ft, "FTU"), TraceLoggingSystemTime(st, "ST"),
      TraceLoggingSystemTimeUtc(st, "STU"), TraceLoggingInt32(7, "Tagged", "", 0x5));
}

static void write_arrays(void) {
  static const INT32 ints[3] = {-1, 0, 1};
  static const UINT8 bytes[4] = {1, 2, 3, 4};
  static const double doubles[2] = {0.5, 2.0};
  static const GUID guids[2] = {{1, 2, 3, {4, 5, 6, 7, 8, 9, 10, 11}},
                                {0xFFFFFFFF, 0, 0, {0, 0, 0, 0, 0, 0, 0, 0}}};
  static const UINT64 hex[2] = {0x10, 0xFF};
  static const BOOL flags[2] = {1, 0};
  static const WCHAR chars[2] = {u'a', u'b'};
  TraceLoggingWrite(
      g_provider, "Arrays", TraceLoggingInt32Array(ints, 3, "Ints"),
      TraceLoggingInt32Array(ints, 0, "None"), TraceLoggingUInt8FixedArray(bytes, 4, "Fixed"),
      TraceLoggingFloat64Array(doubles, 2, "Doubles"), TraceLoggingGuidArray(guids, 2, "Guids"),
      TraceLoggingHexUInt64FixedArray(hex, 2, "Hex"), TraceLoggingBoolArray(flags, 2, "Flags"),
      TraceLoggingWCharArray(chars, 2, "Chars"));
}

static void write_structs(void) {
  TraceLoggingWrite(g_provider, "Structs", TraceLoggingStruct(2, "Point"),
                    TraceLoggingInt32(3, "X"), TraceLoggingInt32(-4, "Y"),
                    TraceLoggingStruct(2, "Outer", "desc", 0x3), TraceLoggingStruct(1, "Inner"),
                    TraceLoggingUInt8(9, "Deep"), TraceLoggingString("after", "Text"),
                    TraceLoggingUInt16(16, "Last"));
}

/* The UTF-16 forms (Char16, String16, …) and the Utc / CodePointer arrays [Tlp]; texts
 * [In] [Out] (DateTime with the UTC out-type). */
static void write_wide(void) {
  static const WCHAR chars[3] = {u'x', u'\u00e9', u'z'};
  static const UINT64 code[2] = {0x1000, 0x2000};
  FILETIME ft[2];
  ft[0].dwLowDateTime = 0;
  ft[0].dwHighDateTime = 0;
  ft[1].dwLowDateTime = (DWORD)(133485408000000001ull & 0xFFFFFFFFu);
  ft[1].dwHighDateTime = (DWORD)(133485408000000001ull >> 32);
  SYSTEMTIME st[1];
  memset(st, 0, sizeof st);
  st[0].wYear = 2024;
  st[0].wMonth = 2;
  st[0].wDay = 29;
  st[0].wHour = 12;
  TraceLoggingWrite(
      g_provider, "Wide", TraceLoggingChar16(u'\u00fc', "C16"),
      TraceLoggingString16(u"sixteen", "S16"), TraceLoggingCountedString16(u"counted16", 7, "CS16"),
      TraceLoggingChar16Array(chars, 3, "C16A"), TraceLoggingChar16FixedArray(chars, 2, "C16F"),
      TraceLoggingFileTimeUtcArray(ft, 2, "FTUA"), TraceLoggingFileTimeUtcFixedArray(ft, 1, "FTUF"),
      TraceLoggingSystemTimeUtcArray(st, 1, "STUA"),
      TraceLoggingSystemTimeUtcFixedArray(st, 1, "STUF"),
      TraceLoggingCodePointerArray(code, 2, "CPA"),
      TraceLoggingCodePointerFixedArray(code, 1, "CPF"));
}

/* A structure with Buffer and Length, as STRING / UNICODE_STRING are laid out. */
struct counted_bytes {
  USHORT Length;
  USHORT MaximumLength;
  const void* Buffer;
};
struct counted_ansi {
  USHORT Length;
  USHORT MaximumLength;
  const char* Buffer;
};
struct counted_wide {
  USHORT Length;
  USHORT MaximumLength;
  const WCHAR* Buffer;
};

/* Binary forms with a structure or out-type, SID, custom serialization [Tlp]; texts
 * [Out] (IPv6, SocketAddress), [In] (SID), [Tei] (the custom schema). */
static void write_buffers(void) {
  static const UCHAR v6[16] = {0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2};
  static const UCHAR sin[16] = {2, 0, 0x1f, 0x90, 127, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0};
  static const UCHAR blob[2] = {0xAB, 0xCD};
  /* S-1-5-21-1-2-3-1001: revision 1, 5 sub-authorities, authority 5 (big-endian) */
  static const UCHAR sid[28] = {1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0,    0, 1, 0,
                                0, 0, 2, 0, 0, 0, 3, 0, 0,  0, 0xE9, 3, 0, 0};
  static const UCHAR custom[3] = {7, 8, 9};
  const struct counted_bytes bytes = {2, 2, blob};
  const struct counted_bytes addr = {16, 16, sin};
  const struct counted_ansi ansi = {5, 5, "ansi!"};
  const struct counted_wide wide = {8, 8, u"uni!"};
  TraceLoggingWrite(
      g_provider, "Buffers", TraceLoggingBinaryEx(v6, 16, TlgOutIPV6, "BinEx"),
      TraceLoggingBinaryBuffer(&bytes, struct counted_bytes, "Buf"),
      TraceLoggingBinaryBufferEx(&addr, struct counted_bytes, TlgOutSOCKETADDRESS, "BufEx"),
      TraceLoggingAnsiString(&ansi, "Ansi"), TraceLoggingUnicodeString(&wide, "Uni"),
      TraceLoggingSid(sid, "Sid"),
      TraceLoggingCustom(custom, 3, 5, (0x01, 0x02, 0x03), 3, "Custom"),
      TraceLoggingCustom(custom, 1, 0, (0x00), 1, "Tagged", "", 0x9));
}

/* The TraceLoggingPacked* macros [Tlp]: arrays of strings, a structure and an array of
 * them from raw data, an out-type on a packed field (Json [Out]); two event tags. */
static void write_packed(void) {
  static const char strings[] = {2, 0, 'a', 'b', 0, 'c', 0};
  static const WCHAR wides[] = {1, u'w', u'1', 0};
  static const WCHAR json[] = u"{\"k\":1}";
  static const INT32 point[2] = {5, -6};
  static const UINT16 n = 2;
  static const UINT32 pairs[4] = {1, 0xA, 2, 0xB};
  TraceLoggingWrite(
      g_provider, "Packed", TraceLoggingKeyword(0x20), TraceLoggingEventTag(0x1000000),
      TraceLoggingEventTag(0x0000081), /* OR-ed: 0x1000081 */
      TraceLoggingPackedField(strings, sizeof strings, TlgInANSISTRING | TlgInVcount, "Strings"),
      TraceLoggingPackedField(wides, sizeof wides, TlgInUNICODESTRING | TlgInVcount, "Wides"),
      TraceLoggingPackedFieldEx(json, sizeof json, TlgInUNICODESTRING, TlgOutJSON, "Json"),
      TraceLoggingPackedData(point, sizeof point), TraceLoggingPackedStruct(2, "Point"),
      TraceLoggingPackedMetadata(TlgInINT32, "X"), TraceLoggingPackedMetadata(TlgInINT32, "Y"),
      TraceLoggingPackedDataEx(&n, sizeof n, EVENT_DATA_DESCRIPTOR_TYPE_NONE),
      TraceLoggingPackedData(pairs, sizeof pairs), TraceLoggingPackedStructArray(2, "Pairs"),
      TraceLoggingPackedMetadata(TlgInUINT32, "Id"),
      TraceLoggingPackedMetadataEx(TlgInUINT32, TlgOutHEX, "Flags", "", 0x4));
}

/* TraceLoggingWriteEx (EventWriteEx's filter and flags), a custom attribute, which is not
 * written, and two levels and opcodes: the last ones count [Tlp]. */
static void write_ex(void) {
  static const GUID activity = {0xCCCC0000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
  TraceLoggingWriteEx(g_provider, "Ex", 0, 0, &activity, NULL, TraceLoggingLevel(1),
                      TraceLoggingOpcode(7), TraceLoggingCustomAttribute("Key", "Value"),
                      TraceLoggingUInt8(1, "One"), TraceLoggingLevel(3), TraceLoggingOpcode(2));
}

static int write_events(void) {
  static const GUID activity = {0xAAAA0000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
  static const GUID related = {0xBBBB0000, 1, 2, {3, 4, 5, 6, 7, 8, 9, 10}};
  FAIL_IF(!TraceLoggingProviderEnabled(g_provider, 5, 0), "not enabled by a session");
  write_scalars();
  write_texts();
  write_arrays();
  write_structs();
  write_wide();
  write_buffers();
  write_packed();
  write_ex();
  TraceLoggingWrite(g_provider, "Empty");
  TraceLoggingWriteActivity(g_provider, "Activity", &activity, &related, TraceLoggingLevel(2),
                            TraceLoggingUInt32(1, "Step"));
  return 0;
}

int main(int argc, char** argv) {
  FAIL_IF(argc != 2, "usage: tlg_producer LOGFILE | --provider-only");
  FAIL_IF(TraceLoggingRegister(g_provider) != S_OK, "TraceLoggingRegister");
  if (strcmp(argv[1], "--provider-only") == 0) {
    const int rc = write_events();
    TraceLoggingUnregister(g_provider);
    return rc;
  }
  struct {
    EVENT_TRACE_PROPERTIES props;
    WCHAR name[64];
    WCHAR file[1024];
  } p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  p.props.LoggerNameOffset = offsetof(__typeof__(p), name);
  p.props.LogFileNameOffset = offsetof(__typeof__(p), file);
  const size_t n = strlen(argv[1]);
  FAIL_IF(n >= 1024, "path too long");
  for (size_t i = 0; i < n; ++i) p.file[i] = (unsigned char)argv[1][i];
  TRACEHANDLE session = 0;
  const GUID id = TraceLoggingProviderId(g_provider);
  FAIL_IF(StartTraceW(&session, u"pfc-tlg", &p.props) != ERROR_SUCCESS, "StartTrace");
  FAIL_IF(EnableTraceEx2(session, &id, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE,
                         NULL) != ERROR_SUCCESS,
          "EnableTraceEx2");
  const int rc = write_events();
  TraceLoggingUnregister(g_provider);
  FAIL_IF(StopTraceW(session, NULL, &p.props) != ERROR_SUCCESS, "StopTrace");
  return rc;
}
