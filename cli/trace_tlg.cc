// cli/trace_tlg.cc — a TraceLogging event as JSON through TdhGetEventInformation and
// TdhFormatProperty (cli/trace_tlg.h). Structures nest; they are walked with an explicit
// stack (docs/architecture.md §6).
#include "cli/trace_tlg.h"

#include <charconv>
#include <cstring>
#include <vector>

#include "base/utf8.h"
#include "io/json_text.h"
#include "pfc/etw/tdh.h"

namespace pfc::cli {
namespace {

std::string text_at(const std::vector<uint8_t>& info, ULONG offset) {
  if (offset == 0 || offset >= info.size()) return "";
  const auto* p = reinterpret_cast<const char16_t*>(info.data() + offset);
  const size_t max = (info.size() - offset) / 2;
  size_t n = 0;
  while (n < max && p[n] != 0) ++n;
  std::string out;
  utf16_to_utf8(std::u16string_view(p, n), out, Unpaired::Replace);
  return out;
}

// Whether TdhFormatProperty's `text` of a value is a JSON number as it is (an integer or
// float in-type formatted as a number, not as an address, IPv4 or text).
bool is_json_number(const std::string& text, USHORT in_type) {
  if (in_type < TDH_INTYPE_INT8 || in_type > TDH_INTYPE_DOUBLE || text.empty()) return false;
  if (text[0] != '-' && (text[0] < '0' || text[0] > '9')) return false;
  double v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

class Decoder {
 public:
  Decoder(EVENT_RECORD& r, std::vector<uint8_t>& info)
      : info_(info), tei_(reinterpret_cast<TRACE_EVENT_INFO*>(info.data())),
        data_(static_cast<uint8_t*>(r.UserData)), end_(data_ + r.UserDataLength) {}

  bool run(std::string& out);

 private:
  struct Frame {
    USHORT begin = 0, end = 0, next = 0;  // an object's properties
    ULONG elements = 0;                   // an array of structures: elements still to come
    USHORT array_of = 0xFFFF;             // that array's property, 0xFFFF for an object
  };
  const EVENT_PROPERTY_INFO& prop(USHORT i) const { return tei_->EventPropertyInfoArray[i]; }
  bool count_of(USHORT i, ULONG& n);
  bool value(const EVENT_PROPERTY_INFO& p, std::string& out);
  void open_struct(USHORT i) {
    const EVENT_PROPERTY_INFO& p = prop(i);
    stack_.push_back(
        {p.structType.StructStartIndex,
         static_cast<USHORT>(p.structType.StructStartIndex + p.structType.NumOfStructMembers),
         p.structType.StructStartIndex});
  }

  std::vector<uint8_t>& info_;
  TRACE_EVENT_INFO* tei_;
  uint8_t* data_;
  uint8_t* end_;
  std::vector<Frame> stack_;
};

bool Decoder::count_of(USHORT i, ULONG& n) {
  const EVENT_PROPERTY_INFO& p = prop(i);
  n = (p.Flags & PropertyParamFixedCount) != 0 ? p.count : 1;
  if ((p.Flags & PropertyParamCount) == 0) return true;
  if (p.countPropertyIndex != i || end_ - data_ < 2) return false;  // TraceLogging's rule
  n = static_cast<ULONG>(data_[0] | data_[1] << 8);
  data_ += 2;
  return true;
}

bool Decoder::value(const EVENT_PROPERTY_INFO& p, std::string& out) {
  ULONG size = 0;
  USHORT used = 0;
  std::vector<char16_t> text(64);
  auto call = [&] {
    size = static_cast<ULONG>(text.size() * 2);
    return TdhFormatProperty(tei_, nullptr, 8, p.nonStructType.InType, p.nonStructType.OutType,
                             p.length, static_cast<USHORT>(end_ - data_), data_, &size,
                             reinterpret_cast<PWCHAR>(text.data()), &used);
  };
  ULONG rc = call();
  if (rc == ERROR_INSUFFICIENT_BUFFER) {
    text.resize(size / 2 + 1);
    rc = call();
  }
  if (rc != ERROR_SUCCESS) return false;
  std::string utf8;
  utf16_to_utf8(std::u16string_view(text.data()), utf8, Unpaired::Replace);
  const bool boolean = p.nonStructType.OutType == TDH_OUTTYPE_BOOLEAN ||
                       p.nonStructType.InType == TDH_INTYPE_BOOLEAN;
  // A JSON literal as it is (true / false of a boolean, a number not shown as a string).
  const bool bare = (boolean && (utf8 == "true" || utf8 == "false")) ||
                    (is_json_number(utf8, p.nonStructType.InType) &&
                     p.nonStructType.OutType != TDH_OUTTYPE_STRING);
  if (bare) out += utf8;
  else out += io::json_quote(utf8);
  data_ += used;
  return true;
}

bool Decoder::run(std::string& out) {
  out += '{';
  stack_.push_back({0, static_cast<USHORT>(tei_->TopLevelPropertyCount), 0});
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    if (f.array_of != 0xFFFF) {  // the next element of an array of structures
      if (f.elements == 0) {
        out += ']';
        stack_.pop_back();
        continue;
      }
      if (f.begin != f.next) out += ',';  // not the first element
      f.next = static_cast<USHORT>(f.begin + 1);
      --f.elements;
      out += '{';
      open_struct(f.array_of);
      continue;
    }
    if (f.next == f.end) {
      out += '}';
      stack_.pop_back();
      continue;
    }
    const USHORT i = f.next++;
    if (i != f.begin) out += ',';
    const EVENT_PROPERTY_INFO& p = prop(i);
    out += io::json_quote(text_at(info_, p.NameOffset));
    out += ':';
    ULONG n = 0;
    if (!count_of(i, n)) return false;
    const bool array = (p.Flags & (PropertyParamCount | PropertyParamFixedCount)) != 0;
    if ((p.Flags & PropertyStruct) != 0) {
      if (array) {
        out += '[';
        stack_.push_back({0, 0, 0, n, i});
      } else {
        out += '{';
        open_struct(i);
      }
      continue;
    }
    if (array) out += '[';
    for (ULONG k = 0; k < n; ++k) {
      if (k != 0) out += ',';
      if (!value(p, out)) return false;
    }
    if (array) out += ']';
  }
  return data_ == end_;
}

}  // namespace

bool decode_tlg(EVENT_RECORD& r, TlgLine& out) {
  bool tl = false;
  for (USHORT i = 0; i < r.ExtendedDataCount && r.ExtendedData != nullptr; ++i)
    tl = tl || r.ExtendedData[i].ExtType == EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
  if (!tl) return false;
  ULONG size = 0;
  if (TdhGetEventInformation(&r, 0, nullptr, nullptr, &size) != ERROR_INSUFFICIENT_BUFFER)
    return false;
  std::vector<uint8_t> info(size);
  if (TdhGetEventInformation(&r, 0, nullptr, reinterpret_cast<TRACE_EVENT_INFO*>(info.data()),
                             &size) != ERROR_SUCCESS)
    return false;
  const auto* tei = reinterpret_cast<const TRACE_EVENT_INFO*>(info.data());
  out.provider = text_at(info, tei->ProviderNameOffset);
  out.event = text_at(info, tei->EventNameOffset);
  out.fields.clear();
  Decoder d(r, info);
  return d.run(out.fields);
}

}  // namespace pfc::cli
