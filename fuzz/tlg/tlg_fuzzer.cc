// fuzz/tlg/tlg_fuzzer.cc — TraceLogging metadata on arbitrary bytes (runtime/tlg.h,
// docs/etw.md "TraceLogging"). Input: u16 metadata length N, N bytes of event metadata,
// then the event's data. The metadata is parsed as given and with its size word fixed up;
// what parses is walked over the data field by field, and the event — its metadata as an
// EVENT_SCHEMA_TL item — goes through TdhGetEventInformation, TdhGetPropertySize of every
// top-level property and TdhFormatProperty of every element, consuming the data as a
// consumer does. The event then goes through the payload-filter view of a script that
// declares every scalar the metadata reaches by path, structure members included
// (runtime/tlg_filter.h), and of one that also declares a member no structure has.
// Checks: nothing reads outside the buffers (ASan), the parser and TDH agree (TDH decodes
// exactly what parses), TDH's property counts match the metadata, and a view is well
// formed (its conformance byte 0 with nothing after it, or 1 with at least the declared
// fixed-size fields' bytes, never more than the data), the same when built again, and
// never conformant when a declared member is missing.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "pfc/etw/tdh.h"
#include "runtime/tlg.h"
#include "runtime/tlg_filter.h"

namespace {

// A script's TraceLogging event `m.name` declaring every scalar field of `m` outside arrays
// of structures, by path, whose in-type a script can declare (up to 64 of them), and
// `extra` when not empty.
pfc::ProgramSpec declaring(const pfc::tlg::EventMeta& m, const std::string& extra) {
  pfc::EventDef ev;
  ev.name = m.name;
  std::vector<std::string> paths(m.fields.size());
  std::vector<bool> reached(m.fields.size(), false);
  for (uint32_t i = 0; i < m.fields.size(); ++i) {
    const pfc::tlg::Field& f = m.fields[i];
    const bool top = f.parent == 0;
    const pfc::tlg::Field* s = top ? nullptr : &m.fields[f.parent - 1];
    reached[i] = top || (reached[f.parent - 1] && s->arity == 0);
    if (!reached[i]) continue;
    paths[i] = top ? f.name : paths[f.parent - 1] + "." + f.name;
    const auto t = static_cast<pfc::InType>(f.in_type);
    if (f.in_type == pfc::tlg::kInStruct || f.arity != 0 || !pfc::in_type_known(f.in_type) ||
        !pfc::tlg::filter_field_type(t) || ev.fields.size() >= 64)
      continue;
    bool seen = false;  // a second field with the same path is not declared twice
    for (const pfc::FieldDef& d : ev.fields) seen = seen || d.name == paths[i];
    if (!seen) ev.fields.push_back(pfc::FieldDef{paths[i], t, {}, {}});
  }
  if (!extra.empty()) ev.fields.push_back(pfc::FieldDef{extra, pfc::InType::UInt8, {}, {}});
  pfc::ProgramSpec spec;
  spec.provider.tracelogging = true;
  spec.provider.events.push_back(ev);
  pfc::EnableParams params;
  params.payload.push_back(pfc::PayloadFilter{});
  params.payload.back().event_name = m.name;
  spec.sessions.emplace_back(0, std::move(params));
  return spec;
}

// Checks the view of the event (`meta`, `data`) through `spec`'s filter views; returns
// whether it conforms.
bool check_view(const pfc::ProgramSpec& spec, const std::vector<uint8_t>& meta,
                const std::vector<uint8_t>& data) {
  const pfc::tlg::FilterViews views(spec);
  if (views.empty()) return false;
  pfc::EventView e{};
  e.payload = data.data();
  e.payload_size = data.size();
  e.meta = meta.data();
  e.meta_size = static_cast<uint32_t>(meta.size());
  e.name = pfc::StrRef::of(spec.provider.events[0].name);
  pfc::EventView storage{};
  const pfc::EventView& v = views.view(e, storage);
  if (v.payload_size == 0 || v.payload[0] > 1) std::abort();
  const std::vector<uint8_t> bytes(v.payload, v.payload + v.payload_size);
  if (bytes[0] == 0 && bytes.size() != 1) std::abort();
  if (bytes[0] == 1) {
    uint64_t fixed = 0;
    for (const pfc::FieldDef& d : spec.provider.events[0].fields)
      fixed += pfc::in_type_fixed_size(d.type);
    if (bytes.size() - 1 < fixed || bytes.size() - 1 > data.size()) std::abort();
  }
  pfc::EventView again{};
  const pfc::EventView& w = views.view(e, again);  // from the plan cache
  if (std::vector<uint8_t>(w.payload, w.payload + w.payload_size) != bytes) std::abort();
  return bytes[0] == 1;
}

// The filter views of scripts declaring the event's fields (see the file comment), on a
// thread of their own: the per-thread plan cache it fills is freed when the thread ends,
// so an input allocates no more than it frees (else libFuzzer checks it for leaks, a heap
// scan per input).
void filter_views(const pfc::tlg::EventMeta& m, const std::vector<uint8_t>& meta,
                  const std::vector<uint8_t>& data) {
  if (m.name.empty()) return;
  std::thread([&] {
    check_view(declaring(m, ""), meta, data);
    for (uint32_t i = 0; i < m.fields.size(); ++i) {
      if (m.fields[i].in_type != pfc::tlg::kInStruct || m.fields[i].parent != 0) continue;
      const std::string missing = m.fields[i].name + "." + std::string(1, '\0');  // no NUL names
      if (check_view(declaring(m, missing), meta, data)) std::abort();
      break;
    }
  }).join();
}

void walk(const pfc::tlg::EventMeta& m, const uint8_t* data, size_t size) {
  pfc::tlg::Walker w(m, data, size);
  uint64_t off = 0;
  for (uint32_t i = 0; i < m.fields.size(); i = m.fields[i].end) {
    uint64_t next = 0;
    if (!w.skip_field(i, off, next)) return;
    if (next < off || next > size) std::abort();  // a walk never leaves the data
    off = next;
  }
}

// Formats every element of the top-level non-structure properties in order, as the
// documented consumer does; stops at the first one that does not decode.
void format_all(TRACE_EVENT_INFO* info, uint8_t* data, size_t size) {
  uint8_t* p = data;
  uint8_t* end = data + size;
  for (ULONG i = 0; i < info->TopLevelPropertyCount; ++i) {
    const EVENT_PROPERTY_INFO& e = info->EventPropertyInfoArray[i];
    if ((e.Flags & PropertyStruct) != 0) return;
    ULONG n = (e.Flags & PropertyParamFixedCount) != 0 ? e.count : 1;
    if ((e.Flags & PropertyParamCount) != 0) {
      if (end - p < 2) return;
      n = static_cast<ULONG>(p[0] | p[1] << 8);
      p += 2;
    }
    for (ULONG k = 0; k < n; ++k) {
      WCHAR text[256];
      ULONG bytes = sizeof text;
      USHORT used = 0;
      const ULONG rc =
          TdhFormatProperty(info, nullptr, 8, e.nonStructType.InType, e.nonStructType.OutType,
                            e.length, static_cast<USHORT>(end - p), p, &bytes, text, &used);
      if (rc != ERROR_SUCCESS) return;
      if (used > end - p) std::abort();  // consumed more than it was given
      p += used;
    }
  }
}

void tdh(std::vector<uint8_t>& meta, std::vector<uint8_t>& data, bool parsed) {
  EVENT_HEADER_EXTENDED_DATA_ITEM item{};
  item.ExtType = EVENT_HEADER_EXT_TYPE_EVENT_SCHEMA_TL;
  item.DataSize = static_cast<USHORT>(meta.size());
  item.DataPtr = reinterpret_cast<uintptr_t>(meta.data());
  EVENT_RECORD r{};
  r.ExtendedDataCount = 1;
  r.ExtendedData = &item;
  r.UserData = data.data();
  r.UserDataLength = static_cast<USHORT>(data.size());
  ULONG size = 0;
  const ULONG rc = TdhGetEventInformation(&r, 0, nullptr, nullptr, &size);
  if ((rc == ERROR_INSUFFICIENT_BUFFER) != parsed) std::abort();  // TDH decodes what parses
  if (rc != ERROR_INSUFFICIENT_BUFFER) return;
  std::vector<uint8_t> buf(size);
  auto* info = reinterpret_cast<TRACE_EVENT_INFO*>(buf.data());
  if (TdhGetEventInformation(&r, 0, nullptr, info, &size) != ERROR_SUCCESS) std::abort();
  for (ULONG i = 0; i < info->TopLevelPropertyCount; ++i) {
    PROPERTY_DATA_DESCRIPTOR d{};
    d.PropertyName =
        reinterpret_cast<uintptr_t>(buf.data() + info->EventPropertyInfoArray[i].NameOffset);
    d.ArrayIndex = 0xFFFFFFFFu;
    ULONG psize = 0;
    if (TdhGetPropertySize(&r, 0, nullptr, 1, &d, &psize) == ERROR_SUCCESS && psize > data.size())
      std::abort();
  }
  format_all(info, data.data(), data.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* in, size_t size) {
  if (size < 2) return 0;
  size_t n = static_cast<size_t>(in[0] | in[1] << 8);
  if (n > size - 2) n = size - 2;
  const size_t data_size = std::min<size_t>(size - 2 - n, 0xFFFF);
  for (int fix = 0; fix < 2; ++fix) {
    std::vector<uint8_t> meta(in + 2, in + 2 + n);
    std::vector<uint8_t> data(in + 2 + n, in + 2 + n + data_size);
    if (fix == 1 && meta.size() >= 2) {
      meta[0] = static_cast<uint8_t>(meta.size());
      meta[1] = static_cast<uint8_t>(meta.size() >> 8);
    }
    auto m = pfc::tlg::parse_event(meta.data(), meta.size());
    if (m) walk(*m, data.data(), data.size());
    if (m) filter_views(*m, meta, data);
    tdh(meta, data, m.has_value());
  }
  return 0;
}
