// etw/tdh_format.cc — TdhFormatProperty: one value of the event data as text, per in-type
// and out-type as Microsoft's manifest schema documents them (InputType and OutputType
// complex types); where Windows' exact text is undocumented, docs/etw.md "TDH decoding"
// states pfc's choice.
#include <arpa/inet.h>

#include <charconv>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "base/utf8.h"
#include "etw/guard.h"
#include "etw/tdh_decode.h"

namespace pfc::etw {
namespace {

// The value being formatted: the bytes left in the event data from the property on.
struct Input {
  const uint8_t* data;
  size_t size;
  uint16_t length;  // PropertyLength: characters (strings) or bytes (binary); 0 = none
};

// A formatted value: its UTF-16 text and how many bytes of the data it took.
struct Formatted {
  std::u16string text;
  size_t consumed = 0;
};

enum class Fail : uint8_t { None, Data, Type };  // ERROR_EVT_INVALID_EVENT_DATA / INVALID_PARAMETER

std::u16string widen(std::string_view ascii) { return std::u16string(ascii.begin(), ascii.end()); }

template <class T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// printf into a std::string (the texts here are short).
__attribute__((format(printf, 1, 2))) std::string text_of(const char* fmt, ...) {
  char buf[128];
  va_list ap;
  va_start(ap, fmt);
  const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return std::string(buf, n < 0 ? 0 : std::min<size_t>(static_cast<size_t>(n), sizeof buf - 1));
}

std::string hex(uint64_t v) { return text_of("0x%llX", static_cast<unsigned long long>(v)); }

std::string guid_text(const uint8_t* p) {
  GUID g;
  std::memcpy(&g, p, sizeof g);
  return text_of("{%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X}", g.Data1, g.Data2, g.Data3,
                 g.Data4[0], g.Data4[1], g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5], g.Data4[6],
                 g.Data4[7]);
}

// FILETIME (100 ns since 1601-01-01 UTC) as ISO 8601 UTC with 7 fraction digits.
std::string filetime_text(uint64_t ft) {
  using namespace std::chrono;
  constexpr uint64_t kPerSecond = 10000000;
  constexpr int64_t kDaysTo1970 = 134774;  // 1601-01-01 → 1970-01-01
  const uint64_t secs = ft / kPerSecond;
  const int64_t days = static_cast<int64_t>(secs / 86400) - kDaysTo1970;
  const year_month_day ymd{sys_days{std::chrono::days{days}}};
  const uint64_t s = secs % 86400;
  return text_of("%04d-%02u-%02uT%02u:%02u:%02u.%07uZ", static_cast<int>(ymd.year()),
                 static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                 static_cast<unsigned>(s / 3600), static_cast<unsigned>(s / 60 % 60),
                 static_cast<unsigned>(s % 60), static_cast<unsigned>(ft % kPerSecond));
}

std::string systemtime_text(const uint8_t* p) {
  const auto w = [&](int i) { return static_cast<unsigned>(load<uint16_t>(p + 2 * i)); };
  // wYear, wMonth, wDayOfWeek, wDay, wHour, wMinute, wSecond, wMilliseconds
  return text_of("%04u-%02u-%02uT%02u:%02u:%02u.%03u", w(0), w(1), w(3), w(4), w(5), w(6), w(7));
}

// A SID (revision, sub-authority count, 48-bit big-endian authority, 32-bit
// sub-authorities) as ConvertSidToStringSid writes it: S-R-A-S1-…; its size, 0 if cut.
size_t sid_text(const uint8_t* p, size_t size, std::string& out) {
  if (size < 8) return 0;
  const size_t n = p[1];
  if (size < 8 + 4 * n) return 0;
  uint64_t authority = 0;
  for (int i = 2; i < 8; ++i) authority = authority << 8 | p[i];
  out = "S-" + std::to_string(p[0]) + "-" + std::to_string(authority);
  for (size_t i = 0; i < n; ++i) out += "-" + std::to_string(load<uint32_t>(p + 8 + 4 * i));
  return 8 + 4 * n;
}

template <class F>
std::string float_text(F v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

// A map entry's text without the trailing spaces of manifest map texts.
std::u16string entry_text(const EVENT_MAP_INFO& m, const EVENT_MAP_ENTRY& e) {
  if (e.OutputOffset == 0) return {};
  std::u16string text(
      reinterpret_cast<const char16_t*>(reinterpret_cast<const uint8_t*>(&m) + e.OutputOffset));
  while (!text.empty() && text.back() == u' ') text.pop_back();
  return text;
}

// A value map's text for v (false when no entry has v); a bit map's texts of the entries
// whose bits are all set, joined with ", ", then any bits left in hex.
bool mapped(const EVENT_MAP_INFO& m, uint64_t v, std::u16string& out) {
  if ((m.Flag & (EVENTMAP_INFO_FLAG_MANIFEST_BITMAP | EVENTMAP_INFO_FLAG_WBEM_BITMAP)) == 0) {
    for (ULONG i = 0; i < m.EntryCount; ++i) {
      if (m.MapEntryArray[i].Value == v) {
        out = entry_text(m, m.MapEntryArray[i]);
        return true;
      }
    }
    return false;
  }
  uint64_t left = v;
  for (ULONG i = 0; i < m.EntryCount; ++i) {
    const ULONG bits = m.MapEntryArray[i].Value;
    if ((bits == 0 && v != 0) || (bits != 0 && (v & bits) != bits)) continue;
    if (!out.empty()) out += u", ";
    out += entry_text(m, m.MapEntryArray[i]);
    left &= ~uint64_t{bits};
  }
  if (left != 0 || out.empty()) {
    if (!out.empty()) out += u", ";
    out += widen(hex(left));
  }
  return true;
}

// A UTF-16LE string: `length` characters, else up to its NUL (which must be there).
Fail wide_string(const Input& in, Formatted& out) {
  const size_t units = in.size / 2;
  size_t n = in.length, end = in.length;
  if (in.length == 0) {
    for (n = 0; n < units && load<char16_t>(in.data + 2 * n) != 0; ++n) {
    }
    if (n == units) return Fail::Data;
    end = n + 1;
  } else if (in.length > units) {
    return Fail::Data;
  }
  for (size_t i = 0; i < n; ++i) {
    const char16_t c = load<char16_t>(in.data + 2 * i);
    if (c == 0) break;  // an embedded NUL ends the text of a counted string
    out.text.push_back(c);
  }
  out.consumed = end * 2;
  return Fail::None;
}

// An 8-bit string (UTF-8 as pfc's producers write it; bytes that are not become U+FFFD).
Fail ansi_string(const Input& in, Formatted& out) {
  size_t n = in.length, end = in.length;
  if (in.length == 0) {
    const void* nul = std::memchr(in.data, 0, in.size);
    if (nul == nullptr) return Fail::Data;
    n = static_cast<size_t>(static_cast<const uint8_t*>(nul) - in.data);
    end = n + 1;
  } else if (in.length > in.size) {
    return Fail::Data;
  }
  const void* nul = std::memchr(in.data, 0, n);
  if (nul != nullptr) n = static_cast<size_t>(static_cast<const uint8_t*>(nul) - in.data);
  out.text = utf8_to_u16_lossy(std::string_view(reinterpret_cast<const char*>(in.data), n));
  out.consumed = end;
  return Fail::None;
}

// Socket addresses: AF_INET (2) and AF_INET6 (Windows' 23) as address:port, others hex.
std::string socket_text(const uint8_t* p, size_t n) {
  char buf[INET6_ADDRSTRLEN] = {};
  const uint16_t family = n >= 2 ? load<uint16_t>(p) : 0;
  if (family == 2 && n >= 8 && inet_ntop(AF_INET, p + 4, buf, sizeof buf) != nullptr)
    return std::string(buf) + ":" + std::to_string(p[2] << 8 | p[3]);
  if (family == 23 && n >= 24 && inet_ntop(AF_INET6, p + 8, buf, sizeof buf) != nullptr)
    return "[" + std::string(buf) + "]:" + std::to_string(p[2] << 8 | p[3]);
  std::string out = "0x";
  for (size_t i = 0; i < n; ++i) out += text_of("%02X", p[i]);
  return out;
}

Fail binary(const Input& in, uint16_t out_type, Formatted& out) {
  if (in.length > in.size) return Fail::Data;
  const uint8_t* p = in.data;
  std::string text;
  if (out_type == TDH_OUTTYPE_IPV6) {
    char buf[INET6_ADDRSTRLEN] = {};
    if (in.length != 16 || inet_ntop(AF_INET6, p, buf, sizeof buf) == nullptr) return Fail::Data;
    text = buf;
  } else if (out_type == TDH_OUTTYPE_SOCKETADDRESS) {
    text = socket_text(p, in.length);
  } else if (in.length != 0) {  // "0x" and the bytes; nothing for none
    text = "0x";
    for (size_t i = 0; i < in.length; ++i) text += text_of("%02X", p[i]);
  }
  out.text = widen(text);
  out.consumed = in.length;
  return Fail::None;
}

// Integers: the value (sign-extended for signed in-types) as the out-type shows it.
Fail integer(uint64_t v, bool is_signed, size_t size, uint16_t out_type, const EVENT_MAP_INFO* map,
             Formatted& out) {
  out.consumed = size;
  if (map != nullptr) return mapped(*map, v, out.text) ? Fail::None : Fail::Data;
  std::string text;
  switch (out_type) {
    case TDH_OUTTYPE_HEXINT8:
    case TDH_OUTTYPE_HEXINT16:
    case TDH_OUTTYPE_HEXINT32:
    case TDH_OUTTYPE_HEXINT64:
    case TDH_OUTTYPE_ERRORCODE:
    case TDH_OUTTYPE_CODE_POINTER:  // pfc resolves no symbols: the address
      text = hex(size == 8 ? v : v & ((uint64_t{1} << (8 * size)) - 1));
      break;
    case TDH_OUTTYPE_WIN32ERROR: text = "Unknown Win32 Error code: " + hex(v & 0xFFFFFFFF); break;
    case TDH_OUTTYPE_NTSTATUS: text = "Unknown NTSTATUS Error code: " + hex(v & 0xFFFFFFFF); break;
    case TDH_OUTTYPE_HRESULT: text = "Unknown HResult Error code: " + hex(v & 0xFFFFFFFF); break;
    case TDH_OUTTYPE_BOOLEAN: text = v != 0 ? "true" : "false"; break;
    case TDH_OUTTYPE_PORT: text = std::to_string(ntohs(static_cast<uint16_t>(v))); break;
    case TDH_OUTTYPE_IPV4:
      text = text_of("%u.%u.%u.%u", static_cast<unsigned>(v & 0xFF),
                     static_cast<unsigned>(v >> 8 & 0xFF), static_cast<unsigned>(v >> 16 & 0xFF),
                     static_cast<unsigned>(v >> 24 & 0xFF));
      break;
    case TDH_OUTTYPE_STRING:
      out.text.push_back(static_cast<char16_t>(size == 1 ? v & 0xFF : v & 0xFFFF));
      return Fail::None;
    default: text = is_signed ? std::to_string(static_cast<int64_t>(v)) : std::to_string(v);
  }
  out.text = widen(text);
  return Fail::None;
}

bool needs(const Input& in, size_t n) { return in.size >= n; }

Fail format(const Input& in, uint16_t in_type, uint16_t out_type, ULONG pointer_size,
            const EVENT_MAP_INFO* map, Formatted& out) {
  if (out_type == TDH_OUTTYPE_NULL) out_type = default_out_type(in_type);
  const uint8_t* p = in.data;
  const auto fixed = [&](size_t n, std::string_view text) {
    if (!needs(in, n)) return Fail::Data;
    out.text = widen(text);
    out.consumed = n;
    return Fail::None;
  };
  const auto int_of = [&](size_t n, bool is_signed) {
    if (!needs(in, n)) return Fail::Data;
    uint64_t v = 0;
    std::memcpy(&v, p, n);  // little-endian
    if (is_signed && n < 8 && (v >> (8 * n - 1) & 1) != 0) v |= ~uint64_t{0} << (8 * n);
    return integer(v, is_signed, n, out_type, map, out);
  };
  switch (in_type) {
    case TDH_INTYPE_UNICODESTRING: return wide_string(in, out);
    case TDH_INTYPE_ANSISTRING: return ansi_string(in, out);
    case TDH_INTYPE_INT8: return int_of(1, true);
    case TDH_INTYPE_UINT8: return int_of(1, false);
    case TDH_INTYPE_INT16: return int_of(2, true);
    case TDH_INTYPE_UINT16: return int_of(2, false);
    case TDH_INTYPE_INT32: return int_of(4, true);
    case TDH_INTYPE_UINT32:
    case TDH_INTYPE_HEXINT32: return int_of(4, false);
    case TDH_INTYPE_INT64: return int_of(8, true);
    case TDH_INTYPE_UINT64:
    case TDH_INTYPE_HEXINT64: return int_of(8, false);
    case TDH_INTYPE_POINTER:
      if (!needs(in, pointer_size)) return Fail::Data;
      return fixed(pointer_size, hex(pointer_size == 4 ? load<uint32_t>(p) : load<uint64_t>(p)));
    case TDH_INTYPE_SIZET:
      if (!needs(in, pointer_size)) return Fail::Data;
      return fixed(pointer_size,
                   std::to_string(pointer_size == 4 ? load<uint32_t>(p) : load<uint64_t>(p)));
    case TDH_INTYPE_BOOLEAN:
      if (!needs(in, 4)) return Fail::Data;
      return fixed(4, load<uint32_t>(p) != 0 ? "true" : "false");
    case TDH_INTYPE_FLOAT:
      if (!needs(in, 4)) return Fail::Data;
      return fixed(4, float_text(load<float>(p)));
    case TDH_INTYPE_DOUBLE:
      if (!needs(in, 8)) return Fail::Data;
      return fixed(8, float_text(load<double>(p)));
    case TDH_INTYPE_GUID:
      if (!needs(in, 16)) return Fail::Data;
      return fixed(16, guid_text(p));
    case TDH_INTYPE_FILETIME:
      if (!needs(in, 8)) return Fail::Data;
      return fixed(8, filetime_text(load<uint64_t>(p)));
    case TDH_INTYPE_SYSTEMTIME:
      if (!needs(in, 16)) return Fail::Data;
      return fixed(16, systemtime_text(p));
    case TDH_INTYPE_SID: {
      std::string text;
      const size_t n = sid_text(p, in.size, text);
      return n == 0 ? Fail::Data : fixed(n, text);
    }
    case TDH_INTYPE_BINARY: return binary(in, out_type, out);
    case TDH_INTYPE_UNICODECHAR:
      if (!needs(in, 2)) return Fail::Data;
      out.text.push_back(load<char16_t>(p));
      out.consumed = 2;
      return Fail::None;
    case TDH_INTYPE_ANSICHAR:
      if (!needs(in, 1)) return Fail::Data;
      out.text.push_back(static_cast<char16_t>(p[0]));
      out.consumed = 1;
      return Fail::None;
    default: return Fail::Type;
  }
}

// The counted forms (docs/etw.md "TraceLogging"): a UINT16 byte count, then UTF-16
// (MANIFEST_COUNTEDSTRING), 8-bit characters (…ANSISTRING) or bytes (…BINARY, and a
// TraceLogging event's BINARY), formatted as their uncounted in-type.
bool is_counted(uint16_t in_type, const TRACE_EVENT_INFO& info) {
  return in_type == TDH_INTYPE_MANIFEST_COUNTEDSTRING ||
         in_type == TDH_INTYPE_MANIFEST_COUNTEDANSISTRING ||
         in_type == TDH_INTYPE_MANIFEST_COUNTEDBINARY ||
         (in_type == TDH_INTYPE_BINARY && info.DecodingSource == DecodingSourceTlg);
}
Fail counted(const Input& in, uint16_t in_type, uint16_t out_type, Formatted& out) {
  if (in.size < 2) return Fail::Data;
  const uint16_t bytes = load<uint16_t>(in.data);
  if (bytes > in.size - 2) return Fail::Data;
  out.consumed = 2;
  if (bytes == 0) return Fail::None;  // the empty value
  Formatted f;
  Fail rc = Fail::None;
  if (in_type == TDH_INTYPE_MANIFEST_COUNTEDSTRING) {
    if (bytes % 2 != 0) return Fail::Data;
    rc = wide_string(Input{in.data + 2, bytes, static_cast<uint16_t>(bytes / 2)}, f);
  } else if (in_type == TDH_INTYPE_MANIFEST_COUNTEDANSISTRING) {
    rc = ansi_string(Input{in.data + 2, bytes, bytes}, f);
  } else {
    if (out_type == TDH_OUTTYPE_NULL) out_type = TDH_OUTTYPE_HEXBINARY;
    rc = binary(Input{in.data + 2, bytes, bytes}, out_type, f);
  }
  out.text = std::move(f.text);
  out.consumed = 2 + size_t{bytes};
  return rc;
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

TDHSTATUS TdhFormatProperty(PTRACE_EVENT_INFO EventInfo, PEVENT_MAP_INFO MapInfo, ULONG PointerSize,
                            USHORT PropertyInType, USHORT PropertyOutType, USHORT PropertyLength,
                            USHORT UserDataLength, PBYTE UserData, PULONG BufferSize, PWCHAR Buffer,
                            PUSHORT UserDataConsumed) {
  return guarded(
      [&]() -> TDHSTATUS {
        if (EventInfo == nullptr || BufferSize == nullptr || UserDataConsumed == nullptr ||
            (UserData == nullptr && UserDataLength != 0)) {
          return tdh_result(ERROR_INVALID_PARAMETER,
                            "NULL EventInfo, BufferSize, "
                            "UserDataConsumed or UserData");
        }
        if (PointerSize != 4 && PointerSize != 8)
          return tdh_result(ERROR_INVALID_PARAMETER, "PointerSize is neither 4 nor 8");
        static const uint8_t kNone = 0;
        const Input in{UserData == nullptr ? &kNone : UserData, UserDataLength, PropertyLength};
        Formatted f;
        const Fail fail =
            is_counted(PropertyInType, *EventInfo)
                ? counted(in, PropertyInType, PropertyOutType, f)
                : format(in, PropertyInType, PropertyOutType, PointerSize, MapInfo, f);
        switch (fail) {
          case Fail::Data:
            return tdh_result(ERROR_EVT_INVALID_EVENT_DATA,
                              "UserDataLength (" + std::to_string(UserDataLength) +
                                  " bytes) does not hold a value of in-type " +
                                  std::to_string(PropertyInType));
          case Fail::Type:
            return tdh_result(ERROR_INVALID_PARAMETER,
                              "in-type " + std::to_string(PropertyInType) + " is not formatted");
          case Fail::None: break;
        }
        const ULONG needed = static_cast<ULONG>((f.text.size() + 1) * sizeof(WCHAR));
        *UserDataConsumed = static_cast<USHORT>(f.consumed);
        const bool fits = Buffer != nullptr && *BufferSize >= needed;
        *BufferSize = needed;
        if (!fits) {
          return tdh_result(ERROR_INSUFFICIENT_BUFFER,
                            "the buffer is too small: " + std::to_string(needed) + " bytes needed");
        }
        std::memcpy(Buffer, f.text.c_str(), needed);
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

}  // extern "C"
