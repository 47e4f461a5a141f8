// tests/cli/ctf_writer_test.cc — cli/ctf_writer.h in-process against babeltrace2: an event
// with a field of every TDH in-type (arrays included), names that need mangling, a payload
// that does not decode, an undeclared event and a clock step back are written as a CTF
// trace, read with `babeltrace2 --clock-gmt --clock-date DIR`, and every event compared
// with the events-file line `pfc trace show` prints for it (io/event_decode.h
// append_payload_json, the code show uses).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "babeltrace_text.h"
#include "cli/ctf_writer.h"
#include "cli/output.h"
#include "io/event_decode.h"
#include "process.h"
#include "runtime/encode.h"

namespace pfc::cli {
namespace {

using io::append_payload_json;
using io::DecodedFields;
using test::BtEvent;

constexpr int64_t kFiletime = 134089920001234567;  // 2025-12-01, 100 ns digits non-zero
const Guid kProvider = *Guid::parse("{00000015-0000-4000-8000-0000000000AB}");

FieldDef field(std::string name, InType t, Extent count = {}, Extent length = {}) {
  FieldDef f;
  f.name = std::move(name);
  f.type = t;
  f.count = count;
  f.length = length;
  return f;
}

Extent fixed(uint32_t n) { return {Extent::Kind::Fixed, n}; }
Extent field_at(uint32_t i) { return {Extent::Kind::Field, i}; }

// Every in-type once, arrays of a few, and names with characters TSDL identifiers lack.
EventDef all_types() {
  EventDef d;
  d.name = "AllTypes";
  d.desc = {7, 2, 16, 4, 11, 3, 0x8000000000000005};
  d.fields = {field("i8", InType::Int8),
              field("u8", InType::UInt8),
              field("i16", InType::Int16),
              field("u16", InType::UInt16),
              field("i32", InType::Int32),
              field("u32", InType::UInt32),
              field("i64", InType::Int64),
              field("u64", InType::UInt64),
              field("f", InType::Float),
              field("d", InType::Double),
              field("b", InType::Boolean),
              field("g", InType::Guid),
              field("wide text", InType::UnicodeString),
              field("s", InType::AnsiString),
              field("ft", InType::FileTime),
              field("st", InType::SystemTime),
              field("h32", InType::HexInt32),
              field("h64", InType::HexInt64),
              field("p", InType::Pointer),
              field("bin", InType::Binary, {}, fixed(3)),
              field("sid", InType::Sid),
              field("n", InType::UInt8),
              field("nums", InType::Int16, field_at(21)),
              field("names", InType::UnicodeString, fixed(2)),
              field("blobs", InType::Binary, fixed(2), fixed(2)),
              field("flags", InType::Boolean, fixed(2)),
              field("times", InType::SystemTime, fixed(1))};
  return d;
}

FieldValue u(uint64_t v) { return FieldValue::of_uint(v); }
FieldValue i(int64_t v) { return FieldValue::of_int(v); }

DecodedFields all_values() {
  const FieldValue st =
      FieldValue::of_array({u(2026), u(11), u(6), u(28), u(11), u(43), u(42), u(923)});
  return {
      {"i8", i(-128)},
      {"u8", u(255)},
      {"i16", i(-32768)},
      {"u16", u(65535)},
      {"i32", i(-7)},
      {"u32", u(4000000000)},
      {"i64", i(-9223372036854775807 - 1)},
      {"u64", u(18446744073709551615u)},
      {"f", FieldValue::of_double(1.5)},
      {"d", FieldValue::of_double(-1e300)},
      {"b", FieldValue::of_bool(true)},
      {"g", FieldValue::of_guid(*Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}"))},
      {"wide text", FieldValue::of_string("h\xc3\xa9llo \xe2\x98\x83 \"q\" \\")},
      {"s", FieldValue::of_string("ansi")},
      {"ft", u(kFiletime)},
      {"st", st},
      {"h32", u(0xBEEF)},
      {"h64", u(0xFEDCBA9876543210)},
      {"p", u(0x7ffd0000a000)},
      {"bin", FieldValue::of_bytes({0, 0x7f, 0xff})},
      {"sid", FieldValue::of_bytes({1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0})},
      {"n", u(3)},
      {"nums", FieldValue::of_array({i(-1), u(0), u(300)})},
      {"names", FieldValue::of_array({FieldValue::of_string("a"), FieldValue::of_string("")})},
      {"blobs", FieldValue::of_array({FieldValue::of_bytes({1, 2}), FieldValue::of_bytes({3, 4})})},
      {"flags", FieldValue::of_array({FieldValue::of_bool(false), FieldValue::of_bool(true)})},
      {"times", FieldValue::of_array({st})}};
}

// The RFC 3339 text `pfc trace show` prints for a FILETIME (7 fraction digits).
std::string rfc3339(int64_t filetime) {
  const int64_t t = filetime - 116444736000000000;
  const std::time_t secs = t / 10000000;
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%07lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(t % 10000000));
  return buf;
}

// The line `pfc trace show` prints for `e` (its members as show writes them).
nlohmann::ordered_json show_line(const CtfEvent& e, int64_t shown_filetime) {
  std::string line =
      "{\"provider\":" +
      json_quote(e.provider_name.empty() ? e.provider.to_string() : std::string(e.provider_name));
  if (e.def != nullptr) line += ",\"event\":" + json_quote(e.def->name);
  EventView view;
  view.desc = e.desc;
  view.payload = e.payload;
  view.payload_size = e.payload_size;
  append_payload_json(line, e.def, view);
  line += "}";
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(line);
  j["id"] = e.desc.id;
  j["version"] = e.desc.version;
  j["level"] = e.desc.level;
  char keyword[24];
  std::snprintf(keyword, sizeof keyword, "0x%llx", static_cast<unsigned long long>(e.desc.keyword));
  j["keyword"] = keyword;
  j["opcode"] = e.desc.opcode;
  j["task"] = e.desc.task;
  j["channel"] = e.desc.channel;
  j["pid"] = e.pid;
  j["tid"] = e.tid;
  j["cpu"] = e.cpu;
  j["ts"] = rfc3339(shown_filetime);
  return j;
}

class CtfWriterTest : public ::testing::Test {
 protected:
  std::vector<BtEvent> babeltrace() {
    const std::string bt = test::babeltrace2_path();
    EXPECT_NE(bt, "") << "babeltrace2 is not installed (scripts/bootstrap installs it)";
    const test::ProcessResult r =
        test::run_process(bt, {"--clock-gmt", "--clock-date", dir_.path("ctf")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");  // babeltrace2 logs a packet it cannot decode and goes on
    return test::parse_babeltrace(r.out);
  }

  test::ScratchDir dir_{"pfc-ctf-writer"};
};

TEST_F(CtfWriterTest, EveryInTypeReadsBackAsShowPrintsIt) {
  const EventDef def = all_types();
  const DecodedFields values = all_values();
  auto payload = encode_payload(def, values);
  ASSERT_TRUE(payload) << payload.error().message;
  auto w = CtfWriter::create(dir_.path("ctf"), "rec.etl");
  ASSERT_TRUE(w) << w.error().message;

  std::vector<CtfEvent> events;
  CtfEvent typed;
  typed.provider = kProvider;
  typed.provider_name = "Prov";
  typed.def = &def;
  typed.desc = def.desc;
  typed.pid = 4242;
  typed.tid = 4243;
  typed.cpu = 3;
  typed.filetime = kFiletime;
  typed.payload = payload->data();
  typed.payload_size = uint32_t(payload->size());
  events.push_back(typed);
  CtfEvent truncated = typed;  // declared, but its payload does not decode: raw
  truncated.payload_size -= 1;
  truncated.filetime += 1;
  events.push_back(truncated);
  CtfEvent undeclared = typed;  // no schema at all
  undeclared.provider_name = {};
  undeclared.def = nullptr;
  undeclared.desc.id = 9;
  undeclared.filetime += 2;
  events.push_back(undeclared);
  EventDef empty_def;  // a declared event without fields: a class without a payload struct
  empty_def.name = "Empty";
  empty_def.desc.id = 8;
  CtfEvent empty = typed;
  empty.def = &empty_def;
  empty.desc = empty_def.desc;
  empty.payload_size = 0;
  empty.filetime += 3;
  events.push_back(empty);
  for (const CtfEvent& e : events) ASSERT_TRUE((*w)->add(e));
  ASSERT_TRUE((*w)->finish());
  EXPECT_EQ((*w)->times_adjusted(), 0u);

  const std::vector<BtEvent> bt = babeltrace();
  ASSERT_EQ(bt.size(), events.size());
  for (size_t k = 0; k < bt.size(); ++k)
    test::compare_with_show(bt[k], show_line(events[k], events[k].filetime),
                            "event " + std::to_string(k));
  EXPECT_EQ(bt[0].fields["wide_text"], "h\xc3\xa9llo \xe2\x98\x83 \"q\" \\");
  EXPECT_EQ(bt[1].name, "Prov:AllTypes");
  EXPECT_EQ(bt[2].name, "{00000015-0000-4000-8000-0000000000AB}:id=9,version=2");
  EXPECT_EQ(bt[3].name, "Prov:Empty");
  EXPECT_TRUE(bt[3].fields.empty());
}

// TSDL identifiers: other characters become '_', and a name taken gets _2, _3 ...
TEST_F(CtfWriterTest, FieldNamesAreMangledAndMadeUnique) {
  EventDef def;
  def.name = "Names \"quoted\"";
  def.fields = {field("a b", InType::UInt8), field("a_b", InType::UInt8),
                field("x", InType::UInt8, fixed(1)), field("x_count", InType::UInt8),
                field("9lives", InType::UInt8)};
  const DecodedFields values = {{"a b", u(1)},
                                {"a_b", u(2)},
                                {"x", FieldValue::of_array({u(3)})},
                                {"x_count", u(4)},
                                {"9lives", u(5)}};
  auto payload = encode_payload(def, values);
  ASSERT_TRUE(payload) << payload.error().message;
  auto w = CtfWriter::create(dir_.path("ctf"), "rec.etl");
  ASSERT_TRUE(w) << w.error().message;
  CtfEvent e;
  e.provider = kProvider;
  e.provider_name = "P";
  e.def = &def;
  e.filetime = kFiletime;
  e.payload = payload->data();
  e.payload_size = uint32_t(payload->size());
  ASSERT_TRUE((*w)->add(e));
  ASSERT_TRUE((*w)->finish());
  const std::vector<BtEvent> bt = babeltrace();
  ASSERT_EQ(bt.size(), 1u);
  EXPECT_EQ(bt[0].name, "P:Names \"quoted\"");
  EXPECT_EQ(bt[0].fields.dump(),
            R"({"a_b":1,"a_b_2":2,"x_count":1,"x":[3],"x_count_2":4,"9lives":5})");
}

// A CTF stream's clock never goes back: an earlier time is written as the previous one.
TEST_F(CtfWriterTest, ATimeStepBackIsWrittenAsThePreviousTimeAndCounted) {
  auto w = CtfWriter::create(dir_.path("ctf"), "rec.etl");
  ASSERT_TRUE(w) << w.error().message;
  CtfEvent e;
  e.provider = kProvider;
  for (const int64_t t : {kFiletime, kFiletime - 10, kFiletime + 5, int64_t{0}}) {
    e.filetime = t;
    ASSERT_TRUE((*w)->add(e));
  }
  ASSERT_TRUE((*w)->finish());
  EXPECT_EQ((*w)->events(), 4u);
  EXPECT_EQ((*w)->times_adjusted(), 2u);
  const std::vector<BtEvent> bt = babeltrace();
  ASSERT_EQ(bt.size(), 4u);
  const std::string first = test::bt_time_of_show(rfc3339(kFiletime));
  const std::string later = test::bt_time_of_show(rfc3339(kFiletime + 5));
  EXPECT_EQ(bt[0].time, first);
  EXPECT_EQ(bt[1].time, first);
  EXPECT_EQ(bt[2].time, later);
  EXPECT_EQ(bt[3].time, later);
}

// Many events span several packets; babeltrace2 reads them all, in order.
TEST_F(CtfWriterTest, ManyPacketsReadBackInOrder) {
  auto w = CtfWriter::create(dir_.path("ctf"), "rec.etl");
  ASSERT_TRUE(w) << w.error().message;
  std::vector<uint8_t> payload(1000);
  CtfEvent e;
  e.provider = kProvider;
  e.payload = payload.data();
  e.payload_size = uint32_t(payload.size());
  constexpr int kEvents = 3000;  // about 3 MB: three or more packets
  for (int k = 0; k < kEvents; ++k) {
    e.filetime = kFiletime + k;
    e.pid = uint32_t(k);
    ASSERT_TRUE((*w)->add(e));
  }
  ASSERT_TRUE((*w)->finish());
  const std::vector<BtEvent> bt = babeltrace();
  ASSERT_EQ(bt.size(), size_t{kEvents});
  for (int k = 0; k < kEvents; ++k) ASSERT_EQ(bt[size_t(k)].context["pid"], k);
}

TEST_F(CtfWriterTest, TheDirectoryMustBeAbsentOrEmpty) {
  std::filesystem::create_directory(dir_.path("full"));
  dir_.write("full/x", "");
  auto full = CtfWriter::create(dir_.path("full"), "rec.etl");
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error().message,
            "cannot write " + dir_.path("full") + ": the directory is not empty");
  dir_.write("file", "");
  auto file = CtfWriter::create(dir_.path("file"), "rec.etl");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().message,
            "cannot write " + dir_.path("file") + ": exists and is not a directory");
  auto missing = CtfWriter::create(dir_.path("no/such"), "rec.etl");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message,
            "cannot write " + dir_.path("no/such") + ": No such file or directory");
  std::filesystem::create_directory(dir_.path("empty"));
  EXPECT_TRUE(CtfWriter::create(dir_.path("empty"), "rec.etl"));
}

}  // namespace
}  // namespace pfc::cli
