// tests/porting/tdh_cxx.cc — what ported C++ TDH consumers rely on beyond the C API
// (docs/porting.md "WCHAR strings"): wprintf / fwprintf with u"" formats and Windows'
// conversions, TdhFormatProperty into a std::vector<wchar_t> (and still with NULL, nullptr
// and WCHAR buffers), GUID == / !=, EventTraceGuid defined through INITGUID as the SDK
// does, UNALIGNED. Built with the porting flags; exits non-zero with a message on a failure.
#include <windows.h>

#define INITGUID
#include <evntrace.h>
#undef INITGUID

#include <tdh.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what);
    ++failures;
  }
}

// What fwprintf wrote to a temporary file, as UTF-8.
template <class... Args>
std::string printed(const char16_t* format, Args... args) {
  FILE* f = std::tmpfile();
  if (f == nullptr) return "<no tmpfile>";
  const int n = fwprintf(f, format, args...);
  char buf[256] = {};
  if (std::fseek(f, 0, SEEK_SET) != 0) {
    std::fclose(f);
    return "<fseek failed>";
  }
  const size_t got = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  return n < 0 ? "<error>" : std::string(buf, got);
}

}  // namespace

int main() {
  // Windows' conversions: %ls a WCHAR string, %hs a CHAR string, %lu 32 bits, %*ls a width.
  check(printed(u"%ls|%hs|%lu|%*ls|", u"caf\u00e9", "narrow", static_cast<ULONG>(42), 3, u"x") ==
            "caf\xC3\xA9|narrow|42|  x|",
        "fwprintf with a WCHAR format");
  check(printed(u"%s %d", u"wide", -7) == "wide -7", "%s is a WCHAR string in a wide format");
  check(wprintf(u"") == 0, "wprintf of an empty format");

  // EventTraceGuid {68fdd900-4a3e-11d1-84f4-0000f80464e3}, GUID comparisons.
  const GUID expected = {
      0x68fdd900, 0x4a3e, 0x11d1, {0x84, 0xf4, 0x00, 0x00, 0xf8, 0x04, 0x64, 0xe3}};
  check(EventTraceGuid == expected, "EventTraceGuid and operator==");
  check(!(EventTraceGuid != expected) && GUID_NULL != expected, "operator!=");

  // TdhFormatProperty into a wchar_t buffer of Windows' size (bytes / 2 elements).
  TRACE_EVENT_INFO info{};
  UINT32 value = 1234;
  const UINT32 UNALIGNED* unaligned = &value;
  ULONG size = 0;
  USHORT used = 0;
  check(TdhFormatProperty(&info, nullptr, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL, 0, 4,
                          reinterpret_cast<PBYTE>(&value), &size, nullptr,
                          &used) == ERROR_INSUFFICIENT_BUFFER &&
            size == 10,
        "sizing call with nullptr");
  std::vector<wchar_t> wide(size / 2);
  check(TdhFormatProperty(&info, nullptr, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_NULL, 0, 4,
                          reinterpret_cast<PBYTE>(&value), &size, wide.data(),
                          &used) == ERROR_SUCCESS &&
            used == 4 && *unaligned == 1234,
        "a wchar_t buffer");
  check(printed(u"%ls", wide.data()) == "1234", "the wchar_t buffer holds WCHARs");
  WCHAR narrow16[8];
  size = sizeof narrow16;
  check(
      // NOLINTNEXTLINE(modernize-use-nullptr): ported code passes NULL (see above)
      TdhFormatProperty(&info, NULL, 8, TDH_INTYPE_UINT32, TDH_OUTTYPE_HEXINT32, 0, 4,
                        reinterpret_cast<PBYTE>(&value), &size, narrow16, &used) == ERROR_SUCCESS &&
          std::u16string(narrow16) == u"0x4D2",
      "a WCHAR buffer");
  return failures == 0 ? 0 : 1;
}
