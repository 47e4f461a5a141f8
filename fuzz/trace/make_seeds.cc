// fuzz/trace/make_seeds.cc — writes the trace fuzzer's seed corpus (fuzz/corpus/trace/):
// inputs in the format of trace_input.h built from real encodings — state bodies from
// trace::encode_state (sessions out of slot order, enables with filter bytes), enable
// parameters from etw::encode_enable_parameters (every filter type, a payload blob from
// etw::encode_blob carrying its layout, version 1, bad versions, too many descriptors),
// and ring programs that lay out what RingWriter writes (events, padding at the wrap,
// positions near 2^64, reserved records of live and dead writers) and then each way a ring
// can be damaged (header fields, misaligned or far positions, lying record sizes, parts,
// states, table counts and entries). Each part of a seed is valid unless its name says what is
// broken. Usage: trace_seeds OUT_DIR   (deterministic; writes OUT_DIR/*.bin)
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "etw/enable_wire.h"
#include "etw/payload_blob.h"
#include "pfc/etw/evntcons.h"
#include "trace/ring.h"
#include "trace/state.h"
#include "trace_input.h"

namespace {

using namespace pfc;
using namespace pfc::fuzz::trace_input;

constexpr uint64_t kCap = trace::kMinRingBytes;  // the fuzzer's rings

trace::NamespaceState sample_state() {
  trace::NamespaceState s;
  s.generation = 7;
  s.next_instance = 5;
  s.next_seq = 9;
  trace::SessionEntry a;
  a.slot = 3;
  a.instance = 4;
  a.name = u"Second";
  a.guid = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  a.log_file_mode = 0x100;
  trace::SessionEntry b = a;
  b.slot = 1;
  b.instance = 2;
  b.name = u"first";
  b.log_file = u"/tmp/x.etl";
  s.sessions = {a, b};  // out of slot order: decode_state sorts them
  trace::EnableEntry e;
  e.provider = a.guid;
  e.slot = 3;
  e.seq = 2;
  e.level = 4;
  e.any = 0xF0;
  e.filters = {0x04, 0, 0, 0x80, 4, 0, 0, 0, 1, 0, 0, 0};  // one PID descriptor
  trace::EnableEntry f = e;
  f.slot = 1;
  f.seq = 8;
  f.capture_seq = 3;
  f.filters.clear();
  s.enables = {e, f};
  return s;
}

std::vector<uint8_t> bytes_of(const void* p, size_t n) {
  const auto* b = static_cast<const uint8_t*>(p);
  return {b, b + n};
}

std::vector<uint8_t> sample_blob() {
  etw::BlobContents c;
  c.provider = *Guid::parse("{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  etw::BlobFilter f;
  f.event_id = 1;
  etw::BlobPredicate n{1, PayloadOp::Gt, InType::UInt32, {}};
  n.value.lo = 10;
  etw::BlobPredicate s{0, PayloadOp::Contains, InType::UnicodeString, {}};
  s.value.text = "abc";
  f.preds = {n, s};
  f.layout = {{"S", InType::UnicodeString, {}, {}}, {"N", InType::UInt32, {}, {}}};
  c.filters = {f};
  return etw::encode_blob(c);
}

// One descriptor of each type with valid data (payload: sample_blob()).
std::vector<std::pair<ULONG, std::vector<uint8_t>>> all_filters() {
  const uint32_t pids[2] = {1, 4242};
  const char16_t exe[] = u"a.exe;b.exe";
  const char16_t pkg[] = u"pkg";
  const uint8_t ids[8] = {1, 0, 2, 0, 1, 0, 7, 0};  // FilterIn, Count 2, ids 1 and 7
  std::vector<uint8_t> names(20, 0);
  names[16] = 5;  // level
  names[17] = 1;  // FilterIn
  names[18] = 2;  // NameCount
  for (const char* n : {"Start", "Stop"})
    names.insert(names.end(), n, n + std::string(n).size() + 1);
  std::vector<uint8_t> level_kw(24, 0);
  level_kw[16] = 4;
  std::vector<uint8_t> schematized(32, 0);
  schematized[16] = 32;  // header Size
  return {{EVENT_FILTER_TYPE_PID, bytes_of(pids, sizeof pids)},
          {EVENT_FILTER_TYPE_EXECUTABLE_NAME, bytes_of(exe, sizeof exe)},
          {EVENT_FILTER_TYPE_PACKAGE_ID, bytes_of(pkg, sizeof pkg)},
          {EVENT_FILTER_TYPE_PACKAGE_APP_ID, bytes_of(pkg, sizeof pkg)},
          {EVENT_FILTER_TYPE_EVENT_ID, bytes_of(ids, sizeof ids)},
          {EVENT_FILTER_TYPE_EVENT_NAME, names},
          {EVENT_FILTER_TYPE_STACKWALK, bytes_of(ids, sizeof ids)},
          {EVENT_FILTER_TYPE_STACKWALK_NAME, names},
          {EVENT_FILTER_TYPE_STACKWALK_LEVEL_KW, level_kw},
          {EVENT_FILTER_TYPE_SCHEMATIZED, schematized},
          {EVENT_FILTER_TYPE_PAYLOAD, sample_blob()}};
}

std::vector<uint8_t> enable_bytes(
    const std::vector<std::pair<ULONG, std::vector<uint8_t>>>& filters,
    ULONG version = ENABLE_TRACE_PARAMETERS_VERSION_2, ULONG property = 0) {
  std::vector<EVENT_FILTER_DESCRIPTOR> desc;
  for (const auto& [type, data] : filters)
    desc.push_back(
        {reinterpret_cast<uintptr_t>(data.data()), static_cast<ULONG>(data.size()), type});
  ENABLE_TRACE_PARAMETERS p{};
  p.Version = version;
  p.EnableProperty = property;
  p.SourceId.Data1 = 0x1234;
  p.EnableFilterDesc = desc.empty() ? nullptr : desc.data();
  p.FilterDescCount = static_cast<ULONG>(desc.size());
  return *etw::encode_enable_parameters(&p);
}

struct Seed {
  std::string name;
  std::vector<uint8_t> bytes;
};

// flags, level 5, MatchAny 0xFF, MatchAll 0, the state and enable parts; the ring program follows.
Writer input(uint8_t flags, const std::vector<uint8_t>& state, const std::vector<uint8_t>& enable) {
  Writer w;
  w.put<uint8_t>(flags).put<uint8_t>(5).put<uint64_t>(0xFF).put<uint64_t>(0);
  w.part(state).part(enable);
  return w;
}

Writer& event(Writer& w, uint16_t payload, uint8_t stack) {
  return w.op(kEvent).put<uint16_t>(payload).put<uint8_t>(stack);
}

std::vector<Seed> state_and_enable_seeds() {
  const std::vector<uint8_t> state = trace::encode_state(sample_state());
  const std::vector<uint8_t> empty = trace::encode_state(trace::NamespaceState{});
  std::vector<Seed> out;
  auto add = [&out](std::string name, Writer w) {
    out.push_back({std::move(name), std::move(w.bytes())});
  };
  add("empty", input(0, empty, {}));
  add("state_file", input(kFlagStateFile, state, {}));
  const char* damages[] = {"magic",    "version",   "body_size", "crc",
                           "reserved", "truncated", "appended"};
  for (uint8_t d = kMagic; d <= kAppended; ++d)
    add(std::string("state_file_") + damages[d - 1],
        input(static_cast<uint8_t>(kFlagStateFile | d << kDamageShift), state, {}));
  std::vector<uint8_t> cut = state;
  cut.pop_back();
  add("state_truncated", input(kFlagStateFile, cut, {}));
  add("enable_all_types", input(0, empty, enable_bytes(all_filters())));
  add("enable_v1",
      input(0, empty, enable_bytes({all_filters()[0]}, ENABLE_TRACE_PARAMETERS_VERSION)));
  std::vector<uint8_t> v3 = enable_bytes({all_filters()[0]});
  v3[0] = 3;  // the version (encode_enable_parameters refuses to write it)
  add("enable_version_3", input(0, empty, v3));
  add("enable_provider_group",
      input(0, empty, enable_bytes({}, 2, EVENT_ENABLE_PROPERTY_PROVIDER_GROUP)));
  std::vector<uint8_t> blob = sample_blob();
  blob[12] ^= 0xFF;  // the checksum, which kFlagFixBlobs fixes up
  add("enable_payload_fixed_up",
      input(kFlagFixBlobs, empty, enable_bytes({{EVENT_FILTER_TYPE_PAYLOAD, blob}})));
  std::vector<uint8_t> many = enable_bytes({});
  many[28] = MAX_EVENT_FILTERS_COUNT + 1;  // the count, after version, property, flags, GUID
  add("enable_too_many", input(0, empty, many));
  std::vector<uint8_t> short_enable = enable_bytes({all_filters()[4]});
  short_enable.pop_back();
  add("enable_truncated", input(0, empty, short_enable));
  return out;
}

std::vector<Seed> ring_seeds() {
  const std::vector<uint8_t> empty = trace::encode_state(trace::NamespaceState{});
  std::vector<Seed> out;
  auto ring = [&empty](uint8_t flags = 0) { return input(flags, empty, {}); };
  auto add = [&out](std::string name, Writer& w) {
    out.push_back({"ring_" + std::move(name), std::move(w.bytes())});
  };
  Writer w = ring();
  event(event(event(w, 0, 0), 13, 1), 200, 4);
  add("events", w);
  w = ring();  // a record that would cross the end: padding to the end, the record at 0
  w.op(kSetTail).put<uint64_t>(kCap - 128);
  event(w, 8, 0).op(kPadding).put<uint32_t>(56);  // a 72-byte event, then padding to the end
  event(w, 100, 2);
  add("wrap", w);
  w = ring();  // positions crossing 2^64: two 144-byte events before it, two after
  w.op(kSetTail).put<uint64_t>(~uint64_t{0} - 287);
  for (int i = 0; i < 4; ++i) event(w, 64, 1);
  add("wrap_2_64", w);
  for (uint8_t flags : {uint8_t{0}, kFlagDeadWriter}) {
    w = ring(flags);  // a reserved record, then a committed one
    w.op(kReserve).put<uint32_t>(128);
    event(w, 16, 0);
    add(flags ? "reserved_dead_writer" : "reserved_live_writer", w);
  }
  w = ring(kFlagDeadWriter);  // died before writing the size word: the rest is lost
  w.op(kSkip).put<uint32_t>(128).op(kHeadHere);
  add("reserved_no_size_dead_writer", w);
  w = ring();
  w.op(kSetClosed).put<uint8_t>(1).op(kSetLost).put<uint64_t>(5).put<uint64_t>(640);
  event(w, 1, 0).op(kPadding).put<uint32_t>(64).op(kPadding).put<uint32_t>(64);
  add("closed_lost_padding", w);
  w = ring();  // records near half the ring each, up to 64 bytes before the end
  event(event(w, 30000, 0), 32000, 0);
  add("big_records", w);
  auto damaged = [&](std::string name, auto&& build) {
    Writer d = ring();
    build(d);
    add("damaged_" + name, d);
  };
  damaged("misaligned_tail", [](Writer& d) { event(d.op(kSetTail).put<uint64_t>(4), 8, 0); });
  damaged("tail_4_before_end", [](Writer& d) {  // the record's state word would lie past the end
    event(d, 8, 0).op(kSetTail).put<uint64_t>(kCap - 4).op(kRaw).put<uint8_t>(4).put<uint32_t>(64);
  });
  damaged("head_too_far", [](Writer& d) { event(d, 8, 0).op(kSetHead).put<uint64_t>(3 * kCap); });
  damaged("head_behind_tail",
          [](Writer& d) { d.op(kSetTail).put<uint64_t>(4096).op(kSetHead).put<uint64_t>(64); });
  damaged("unknown_parts", [](Writer& d) {
    d.op(kRecord)
        .put<uint32_t>(128)
        .put<uint32_t>(trace::kRecordEvent)
        .put<uint32_t>(0xC0FF)  // entry inline, parts bits no record has
        .put<uint16_t>(0);
    d.op(kHeadHere);
  });
  damaged("stack_count", [](Writer& d) {
    d.op(kRecord)
        .put<uint32_t>(128)
        .put<uint32_t>(trace::kRecordEvent)
        .put<uint32_t>(uint32_t{trace::kPartStack} << 8 | trace::kEntryInline)
        .put<uint16_t>(20);  // 160 stack bytes in a 128-byte record
    d.op(kHeadHere);
  });
  damaged("payload_padding", [](Writer& d) {
    d.op(kRecord)
        .put<uint32_t>(24)
        .put<uint32_t>(trace::kRecordEvent)
        .put<uint32_t>(3u << 8)  // entry 0, 3 bytes of padding of an empty payload
        .put<uint16_t>(0);
    d.op(kTable).put<uint8_t>(1).op(kHeadHere);
  });
  damaged("record_size", [](Writer& d) {
    d.op(kRecord)
        .put<uint32_t>(100)
        .put<uint32_t>(trace::kRecordEvent)
        .put<uint32_t>(0)
        .put<uint16_t>(0);
    d.op(kHeadHere);
  });
  damaged("unknown_state", [](Writer& d) {
    d.op(kRecord).put<uint32_t>(128).put<uint32_t>(3).put<uint32_t>(0).put<uint16_t>(0).op(
        kHeadHere);
  });
  w = ring();  // events naming table entries, one with an inline entry between them
  w.op(kTable).put<uint8_t>(3);
  w.op(kEntryEvent).put<uint8_t>(0).put<uint16_t>(14);
  event(w, 14, 0).op(kEntryEvent).put<uint8_t>(2).put<uint16_t>(0);
  w.op(kEntryEvent).put<uint8_t>(1).put<uint16_t>(300);
  add("table_events", w);
  damaged("unpublished_entry", [](Writer& d) {
    d.op(kTable).put<uint8_t>(1).op(kEntryEvent).put<uint8_t>(0).put<uint16_t>(4);
    d.op(kEntryEvent).put<uint8_t>(5).put<uint16_t>(4);
  });
  damaged("table_count", [](Writer& d) {
    d.op(kTable).put<uint8_t>(200).op(kEntryEvent).put<uint8_t>(0).put<uint16_t>(4);
  });
  damaged("record_past_end",
          [](Writer& d) { event(d.op(kSetTail).put<uint64_t>(kCap / 2), 40000, 0); });
  damaged("raw_bytes", [](Writer& d) {  // over the committed record's size, state and time
    event(d, 24, 0).op(kSetTail).put<uint64_t>(0).op(kRaw).put<uint8_t>(16);
    for (int i = 0; i < 16; ++i) d.put<uint8_t>(static_cast<uint8_t>(0xF0 + i));
  });
  // Header fields (RingHeader): magic @0, version @8, header size @12, capacity @16,
  // instance @24, pid @32, start @40.
  struct Patch {
    const char* name;
    uint8_t at;
    uint8_t value;
  };
  for (const Patch& p :
       {Patch{"magic", 0, 0x51}, Patch{"version", 8, 2}, Patch{"header_size", 13, 0x20},
        Patch{"capacity_double", 18, 2}, Patch{"capacity_odd", 16, 1}, Patch{"instance", 24, 9},
        Patch{"pid", 32, 1}, Patch{"start", 40, 0xFF}}) {
    w = ring();
    event(w, 8, 0).op(kPatchHeader).put<uint8_t>(p.at).put<uint8_t>(p.value);
    add(std::string("header_") + p.name, w);
  }
  // Window rings (1 KB windows): a window head (commit word, base, end, span, thread) and
  // two packed records of 4 payload bytes, the first of the window's thread, the second with
  // its own, then head past them.
  const auto window = [](Writer& d, uint64_t commit, uint32_t end, uint32_t head) {
    Writer b;
    b.put<uint64_t>(commit).put<uint64_t>(1000).put<uint32_t>(end).put<uint32_t>(0);
    b.put<uint64_t>(7);  // tid 7, cpu 0
    b.put<uint16_t>(4).put<uint8_t>(0).put<uint8_t>(0).put<uint32_t>(0).put<uint32_t>(0xABCD0000u);
    b.put<uint16_t>(4).put<uint8_t>(0).put<uint8_t>(16).put<uint32_t>(1);  // kPackedThread
    b.put<uint32_t>(8).put<uint16_t>(1).put<uint32_t>(0xABCD0001u);
    d.op(kRaw).put<uint8_t>(static_cast<uint8_t>(b.bytes().size()));
    for (uint8_t c : b.bytes()) d.put<uint8_t>(c);
    d.op(kSkip).put<uint32_t>(head).op(kHeadHere);
  };
  w = ring(kFlagWindows);  // 32 + 12 + 18 bytes
  window(w, uint64_t{2} << 32 | 62, 0, 62);
  add("window_open", w);
  w = ring(kFlagWindows);
  window(w, uint64_t{2} << 32 | 1024, 62, 1024);
  add("window_complete", w);
  w = ring(kFlagWindows | kFlagDeadWriter);
  window(w, uint64_t{1} << 32 | 44, 0, 62);
  add("window_dead_writer", w);
  w = ring(kFlagWindows);
  window(w, uint64_t{2} << 32 | 2000, 62, 1024);
  add("window_damaged", w);
  // The same rings read by span(), the session host's way (header damage aside: the reader
  // refuses it at open).
  const size_t n = out.size();
  for (size_t i = 0; i < n; ++i) {
    if (out[i].name.starts_with("ring_header_") || out[i].name.starts_with("ring_window_"))
      continue;
    Seed s = out[i];
    s.bytes[0] |= kFlagSpans;
    s.name = "ring_spans_" + s.name.substr(5);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  std::vector<Seed> seeds = state_and_enable_seeds();
  for (Seed& s : ring_seeds()) seeds.push_back(std::move(s));
  size_t total = 0;
  for (const Seed& s : seeds) {
    const std::string path = std::string(argv[1]) + "/" + s.name + ".bin";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(s.bytes.data(), 1, s.bytes.size(), f) != s.bytes.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "%s: cannot write\n", path.c_str());
      return 1;
    }
    total += s.bytes.size();
  }
  std::printf("%zu seeds, %zu bytes\n", seeds.size(), total);
  return 0;
}
