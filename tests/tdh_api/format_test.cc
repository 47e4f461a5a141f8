// tests/tdh_api/format_test.cc — TdhFormatProperty's text per in-type and out-type (one row
// each), its sizes and its error codes. Each expected text cites the Microsoft page that
// documents it; where Windows' exact text is undocumented the row cites docs/etw.md "TDH
// decoding", which states pfc's choice. Pages (learn.microsoft.com):
//   [In]  "InputType Complex Type" (Windows Event Log manifest schema), Remarks table
//   [Out] "OutputType Complex Type", Remarks table
//   [Fmt] "TdhFormatProperty function (tdh.h)"
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "pfc/etw/tdh.h"

namespace {

struct Result {
  ULONG rc = 0;
  std::u16string text;
  USHORT consumed = 0;
};

Result format(USHORT in, USHORT out, std::vector<uint8_t> data, USHORT length = 0,
              const EVENT_MAP_INFO* map = nullptr, ULONG pointer_size = 8) {
  TRACE_EVENT_INFO info{};
  Result r;
  ULONG size = 0;
  r.rc =
      TdhFormatProperty(&info, const_cast<EVENT_MAP_INFO*>(map), pointer_size, in, out, length,
                        static_cast<USHORT>(data.size()), data.data(), &size, nullptr, &r.consumed);
  if (r.rc != ERROR_INSUFFICIENT_BUFFER) return r;
  std::vector<WCHAR> buf(size / sizeof(WCHAR));
  r.rc = TdhFormatProperty(&info, const_cast<EVENT_MAP_INFO*>(map), pointer_size, in, out, length,
                           static_cast<USHORT>(data.size()), data.data(), &size, buf.data(),
                           &r.consumed);
  EXPECT_EQ(size, buf.size() * sizeof(WCHAR));
  r.text = buf.data();
  return r;
}

template <class T>
std::vector<uint8_t> bytes(T v) {
  std::vector<uint8_t> out(sizeof v);
  std::memcpy(out.data(), &v, sizeof v);
  return out;
}

struct Row {
  const char* cite;
  USHORT in, out;
  std::vector<uint8_t> data;
  USHORT length;
  const char16_t* text;
  USHORT consumed;
};

const GUID kGuid = {0x01234567, 0x89AB, 0xCDEF, {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF}};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
      // [Out] xs:byte .. xs:unsignedLong: "formatted as a decimal integer".
      {"[Out] xs:byte", TDH_INTYPE_INT8, TDH_OUTTYPE_NULL, bytes<int8_t>(-5), 0, u"-5", 1},
      {"[Out] xs:unsignedByte", TDH_INTYPE_UINT8, TDH_OUTTYPE_NULL, bytes<uint8_t>(250), 0,
       u"250", 1},
      {"[Out] xs:short", TDH_INTYPE_INT16, TDH_OUTTYPE_SHORT, bytes<int16_t>(-300), 0, u"-300", 2},
      {"[Out] xs:unsignedShort", TDH_INTYPE_UINT16, TDH_OUTTYPE_NULL, bytes<uint16_t>(65535), 0,
       u"65535", 2},
      {"[Out] xs:int", TDH_INTYPE_INT32, TDH_OUTTYPE_NULL, bytes<int32_t>(-2147483647 - 1), 0,
       u"-2147483648", 4},
      {"[Out] xs:unsignedInt", TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL, bytes<uint32_t>(4000000000u),
       0, u"4000000000", 4},
      {"[Out] xs:long", TDH_INTYPE_INT64, TDH_OUTTYPE_NULL, bytes<int64_t>(-1), 0, u"-1", 8},
      {"[Out] xs:unsignedLong", TDH_INTYPE_UINT64, TDH_OUTTYPE_NULL,
       bytes<uint64_t>(18446744073709551615ull), 0, u"18446744073709551615", 8},
      // [Out] win:PID / win:TID / win:ETWTIME: "formatted as a decimal integer".
      {"[Out] win:PID", TDH_INTYPE_UINT32, TDH_OUTTYPE_PID, bytes<uint32_t>(4242), 0, u"4242", 4},
      {"[Out] win:TID", TDH_INTYPE_UINT32, TDH_OUTTYPE_TID, bytes<uint32_t>(17), 0, u"17", 4},
      {"[Out] win:ETWTIME", TDH_INTYPE_UINT64, TDH_OUTTYPE_ETWTIME, bytes<uint64_t>(123456789),
       0, u"123456789", 8},
      // [Out] win:HexInt8..64: "preceded by "0x" ... not padded with leading zeros"; the
      // digits' case is docs/etw.md's choice (upper).
      {"[Out] win:HexInt8", TDH_INTYPE_UINT8, TDH_OUTTYPE_HEXINT8, bytes<uint8_t>(0x0A), 0,
       u"0xA", 1},
      {"[Out] win:HexInt16", TDH_INTYPE_UINT16, TDH_OUTTYPE_HEXINT16, bytes<uint16_t>(0x00FF), 0,
       u"0xFF", 2},
      {"[Out] win:HexInt32", TDH_INTYPE_UINT32, TDH_OUTTYPE_HEXINT32, bytes<uint32_t>(0x1F), 0,
       u"0x1F", 4},
      {"[In] win:HexInt32 (default win:HexInt32)", TDH_INTYPE_HEXINT32, TDH_OUTTYPE_NULL,
       bytes<uint32_t>(0xAC7BD361), 0, u"0xAC7BD361", 4},
      {"[In] win:HexInt64 (default win:HexInt64)", TDH_INTYPE_HEXINT64, TDH_OUTTYPE_NULL,
       bytes<uint64_t>(0x100000000ull), 0, u"0x100000000", 8},
      // [In] win:Pointer: "win:HexInt64"; its size is PointerSize ([Fmt]).
      {"[In] win:Pointer", TDH_INTYPE_POINTER, TDH_OUTTYPE_NULL,
       bytes<uint64_t>(0x7FFE12345678ull), 0, u"0x7FFE12345678", 8},
      // [In] win:Boolean: "0 is false and 1 is true"; [Out] xs:boolean. Text: docs/etw.md.
      {"[In] win:Boolean false", TDH_INTYPE_BOOLEAN, TDH_OUTTYPE_NULL, bytes<uint32_t>(0), 0,
       u"false", 4},
      {"[In] win:Boolean true", TDH_INTYPE_BOOLEAN, TDH_OUTTYPE_BOOLEAN, bytes<uint32_t>(1), 0,
       u"true", 4},
      // [Out] xs:boolean "also valid for the UInt8 input type ... 8-bit Boolean".
      {"[Out] xs:boolean on win:UInt8", TDH_INTYPE_UINT8, TDH_OUTTYPE_BOOLEAN, bytes<uint8_t>(1),
       0, u"true", 1},
      // [Out] xs:string on win:Int8/UInt8/UInt16: "interpreted as a single character".
      {"[Out] xs:string on win:UInt16", TDH_INTYPE_UINT16, TDH_OUTTYPE_STRING,
       bytes<uint16_t>(u'Z'), 0, u"Z", 2},
      // [Out] win:Port: "Pass the value to the ntohs function and format the result as a
      // decimal integer".
      {"[Out] win:Port", TDH_INTYPE_UINT16, TDH_OUTTYPE_PORT,
       std::vector<uint8_t>{0x1F, 0x90}, 0, u"8080", 2},
      // [Out] win:IPv4: "The low-order byte contains the value for p1 ... dot notation".
      {"[Out] win:IPv4", TDH_INTYPE_UINT32, TDH_OUTTYPE_IPV4, std::vector<uint8_t>{192, 168, 0, 1},
       0, u"192.168.0.1", 4},
      // [Out] win:Win32Error / win:NTSTATUS / win:HResult: without a message string, "Unknown
      // ... Error code: 0x" and the code in hexadecimal (pfc has no message tables).
      {"[Out] win:Win32Error", TDH_INTYPE_UINT32, TDH_OUTTYPE_WIN32ERROR, bytes<uint32_t>(5), 0,
       u"Unknown Win32 Error code: 0x5", 4},
      {"[Out] win:NTSTATUS", TDH_INTYPE_UINT32, TDH_OUTTYPE_NTSTATUS,
       bytes<uint32_t>(0xC0000005u), 0, u"Unknown NTSTATUS Error code: 0xC0000005", 4},
      {"[Out] win:HResult", TDH_INTYPE_INT32, TDH_OUTTYPE_HRESULT, bytes<uint32_t>(0x80070005u),
       0, u"Unknown HResult Error code: 0x80070005", 4},
      // [Out] win:ErrorCode: "rendered as a hexadecimal number that is preceded by "0x"".
      {"[Out] win:ErrorCode", TDH_INTYPE_UINT32, TDH_OUTTYPE_ERRORCODE, bytes<uint32_t>(0x57), 0,
       u"0x57", 4},
      // [Out] xs:float / xs:double: the shortest text that reads back (docs/etw.md).
      {"[Out] xs:float", TDH_INTYPE_FLOAT, TDH_OUTTYPE_NULL, bytes<float>(1.5f), 0, u"1.5", 4},
      {"[Out] xs:double", TDH_INTYPE_DOUBLE, TDH_OUTTYPE_NULL, bytes<double>(-0.25), 0, u"-0.25",
       8},
      // [In] win:GUID: "rendered in the registry string form,
      // {xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" (upper case: docs/etw.md).
      {"[In] win:GUID", TDH_INTYPE_GUID, TDH_OUTTYPE_NULL, bytes(kGuid), 0,
       u"{01234567-89AB-CDEF-0123-456789ABCDEF}", 16},
      // [In] win:UnicodeString: "UTF-16LE"; NUL-terminated without a length ([Fmt]
      // UserDataConsumed counts the terminator).
      {"[In] win:UnicodeString", TDH_INTYPE_UNICODESTRING, TDH_OUTTYPE_NULL,
       std::vector<uint8_t>{'h', 0, 'i', 0, 0, 0, 'x', 0}, 0, u"hi", 6},
      {"[In] win:UnicodeString with a length (characters)", TDH_INTYPE_UNICODESTRING,
       TDH_OUTTYPE_STRING, std::vector<uint8_t>{'a', 0, 'b', 0, 'c', 0}, 2, u"ab", 4},
      {"[Out] win:Xml on win:UnicodeString", TDH_INTYPE_UNICODESTRING, TDH_OUTTYPE_XML,
       std::vector<uint8_t>{'<', 0, 'a', 0, '/', 0, '>', 0, 0, 0}, 0, u"<a/>", 10},
      // [In] win:AnsiString: 8-bit characters (UTF-8 as pfc's producers write them:
      // docs/etw.md); [Out] win:Utf8.
      {"[In] win:AnsiString", TDH_INTYPE_ANSISTRING, TDH_OUTTYPE_NULL,
       std::vector<uint8_t>{'o', 'k', 0}, 0, u"ok", 3},
      {"[In] win:AnsiString, a byte that is not UTF-8: U+FFFD (docs/etw.md)",
       TDH_INTYPE_ANSISTRING, TDH_OUTTYPE_NULL, std::vector<uint8_t>{'a', 0xFF, 0}, 0,
       u"a\uFFFD", 3},
      {"[Out] win:Utf8", TDH_INTYPE_ANSISTRING, TDH_OUTTYPE_UTF8,
       std::vector<uint8_t>{0xC3, 0xA9, 't', 0xC3, 0xA9}, 5, u"\u00e9t\u00e9", 5},
      // [Out] xs:hexBinary: "A sequence of hexadecimal digits. Each byte ... padded with
      // leading zeros" ("0x" prefix and case: docs/etw.md).
      {"[Out] xs:hexBinary", TDH_INTYPE_BINARY, TDH_OUTTYPE_NULL,
       std::vector<uint8_t>{0x00, 0x0F, 0xA0}, 3, u"0x000FA0", 3},
      {"[Out] xs:hexBinary, no bytes (docs/etw.md)", TDH_INTYPE_BINARY, TDH_OUTTYPE_HEXBINARY,
       std::vector<uint8_t>{}, 0, u"", 0},
      // [Out] win:IPv6: formatted as RtlIpv6AddressToString does.
      {"[Out] win:IPv6", TDH_INTYPE_BINARY, TDH_OUTTYPE_IPV6,
       std::vector<uint8_t>{0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 16,
       u"2001:db8::1", 16},
      // [Out] win:SocketAddress: "For the AF_INET and AF_INET6 families, the address is
      // formatted as <IP_Address>:<Port>".
      {"[Out] win:SocketAddress AF_INET", TDH_INTYPE_BINARY, TDH_OUTTYPE_SOCKETADDRESS,
       std::vector<uint8_t>{2, 0, 0x00, 0x50, 10, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0}, 16,
       u"10.0.0.7:80", 16},
      // [In] win:FILETIME / win:SYSTEMTIME, [Out] xs:dateTime: "An XML date/time" (ISO 8601;
      // FILETIME in UTC with 100 ns digits: docs/etw.md).
      {"[In] win:FILETIME", TDH_INTYPE_FILETIME, TDH_OUTTYPE_NULL,
       bytes<uint64_t>(133485408000000001ull), 0, u"2024-01-01T00:00:00.0000001Z", 8},
      {"[In] win:SYSTEMTIME", TDH_INTYPE_SYSTEMTIME, TDH_OUTTYPE_NULL,
       [] {
         const uint16_t st[8] = {2023, 12, 0, 31, 23, 59, 58, 7};
         std::vector<uint8_t> v(16);
         std::memcpy(v.data(), st, 16);
         return v;
       }(),
       0, u"2023-12-31T23:59:58.007", 16},
      // [In] win:SID: "rendered in string form using the ConvertSidToStringSid function".
      {"[In] win:SID", TDH_INTYPE_SID, TDH_OUTTYPE_NULL,
       std::vector<uint8_t>{1, 2, 0, 0, 0, 0, 0, 5, 32, 0, 0, 0, 0x20, 0x02, 0, 0}, 0,
       u"S-1-5-32-544", 16},
  };
  return table;
}

TEST(FormatProperty, EachInAndOutType) {
  for (const Row& r : rows()) {
    SCOPED_TRACE(r.cite);
    const Result got = format(r.in, r.out, r.data, r.length);
    ASSERT_EQ(got.rc, ERROR_SUCCESS) << PfcTdhGetLastErrorMessage();
    EXPECT_EQ(got.text, r.text);
    EXPECT_EQ(got.consumed, r.consumed);
  }
}

// [Out] win:HexInt64 for a 4-byte pointer: PointerSize says how many bytes ([Fmt]).
TEST(FormatProperty, PointerSizeFour) {
  const Result r = format(TDH_INTYPE_POINTER, TDH_OUTTYPE_NULL, bytes<uint64_t>(0xFFFFFFFF12345678),
                          0, nullptr, 4);
  EXPECT_EQ(r.text, u"0x12345678");
  EXPECT_EQ(r.consumed, 4);
}

// EVENT_MAP_INFO as TdhGetEventMapInformation returns it (texts end with a space):
// [Fmt] MapInfo "maps integer and bit values to strings".
struct Map {
  EVENT_MAP_INFO head;
  EVENT_MAP_ENTRY more[2];
  char16_t texts[3][8];
};

Map make_map(MAP_FLAGS flag) {
  Map m{};
  m.head.Flag = flag;
  m.head.EntryCount = 3;
  const ULONG values[3] = {1, 2, 4};
  const char16_t* names[3] = {u"One ", u"Two ", u"Four "};
  EVENT_MAP_ENTRY* e = m.head.MapEntryArray;
  for (int i = 0; i < 3; ++i) {
    e[i].Value = values[i];
    e[i].OutputOffset = static_cast<ULONG>(offsetof(Map, texts) + sizeof m.texts[0] * i);
    std::char_traits<char16_t>::copy(m.texts[i], names[i],
                                     std::char_traits<char16_t>::length(names[i]) + 1);
  }
  return m;
}

TEST(FormatProperty, ValueMapsAndBitMaps) {
  const Map values = make_map(EVENTMAP_INFO_FLAG_MANIFEST_VALUEMAP);
  // The text without its trailing space (docs/etw.md).
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, bytes<uint32_t>(2), 0, &values.head).text, u"Two");
  // A value no entry has: ERROR_EVT_INVALID_EVENT_DATA ("If the value isn't in the map,
  // TdhFormatProperty treats it as an error", the TdhFormatProperty sample of
  // learn.microsoft.com "Using TdhFormatProperty to Consume Event Data").
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, bytes<uint32_t>(9), 0, &values.head).rc,
            ERROR_EVT_INVALID_EVENT_DATA);
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, bytes<uint32_t>(9)).text, u"9");  // without the map
  const Map bits = make_map(EVENTMAP_INFO_FLAG_MANIFEST_BITMAP);
  // The texts of the set bits, ", " between them, bits no entry names in hex (docs/etw.md).
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, bytes<uint32_t>(5), 0, &bits.head).text, u"One, Four");
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, bytes<uint32_t>(0x13), 0, &bits.head).text,
            u"One, Two, 0x10");
  EXPECT_EQ(format(TDH_INTYPE_UINT8, 0, bytes<uint8_t>(0), 0, &bits.head).text, u"0x0");
}

TEST(FormatProperty, BufferSizesAndErrors) {
  TRACE_EVENT_INFO info{};
  uint32_t v = 12345;
  ULONG size = 4;  // "12345" and its NUL need 12 bytes
  WCHAR small[2];
  USHORT used = 0;
  EXPECT_EQ(TdhFormatProperty(&info, nullptr, 8, TDH_INTYPE_UINT32, 0, 0, 4,
                              reinterpret_cast<PBYTE>(&v), &size, small, &used),
            ERROR_INSUFFICIENT_BUFFER);  // [Fmt] BufferSize receives the required size
  EXPECT_EQ(size, 12u);
  // Fewer bytes than the type needs: the data does not hold the value.
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, {1, 2}).rc, ERROR_EVT_INVALID_EVENT_DATA);
  EXPECT_EQ(format(TDH_INTYPE_UNICODESTRING, 0, {'a', 0, 'b', 0}).rc,
            ERROR_EVT_INVALID_EVENT_DATA);  // no terminator
  EXPECT_EQ(format(TDH_INTYPE_BINARY, 0, {1, 2}, 3).rc, ERROR_EVT_INVALID_EVENT_DATA);
  EXPECT_EQ(format(TDH_INTYPE_SID, 0, {1, 5, 0, 0, 0, 0, 0, 5}).rc, ERROR_EVT_INVALID_EVENT_DATA);
  EXPECT_EQ(format(TDH_INTYPE_WBEMSID, 0, {1, 2, 3, 4}).rc, ERROR_INVALID_PARAMETER);
  EXPECT_EQ(format(TDH_INTYPE_UINT32, 0, bytes<uint32_t>(1), 0, nullptr, 2).rc,
            ERROR_INVALID_PARAMETER);  // PointerSize neither 4 nor 8
  size = 64;
  EXPECT_EQ(TdhFormatProperty(nullptr, nullptr, 8, TDH_INTYPE_UINT32, 0, 0, 4,
                              reinterpret_cast<PBYTE>(&v), &size, small, &used),
            ERROR_INVALID_PARAMETER);
}

}  // namespace
