// tests/cli/pass_through_test.cc — `pfc run --output events` on JSON Lines writes each
// selected event's line as it came (docs/cli.md "Output"): lines in every form the reader
// accepts come out byte for byte, hold the events the re-encoding holds, and every other
// input form (a JSON array, a capture) is re-encoded.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run_output.h"
#include "process.h"

namespace pfc::test {
namespace {

const char* const kScript = R"(provider P {11111111-2222-3333-4444-555555555555} {
    event E (id=1, level=4) { N: uint32; S: wstring; D: double; }
}
session A { enable P level=verbose { payload E all { N eq 7 } } }
session B { enable P level=verbose; }
)";

const std::vector<std::string> kReencode = {std::string(cli::kReencodeEventsVar) + "=1"};

class PassThrough : public testing::Test {
 protected:
  void SetUp() override { write("s.pfs", kScript); }
  std::string path(const std::string& name) const { return scratch_.path(name); }
  void write(const std::string& name, const std::string& text) const { scratch_.write(name, text); }
  // `pfc run s.pfs --events FILE --output events [--session A]`, its lines as they came or,
  // with `reencode`, re-encoded; expects success.
  std::string events(const std::string& file, bool reencode, bool only_a = false) const {
    std::vector<std::string> args = {"run",      path("s.pfs"), "--events",
                                     path(file), "--output",    "events"};
    if (only_a) args.insert(args.end(), {"--session", "A"});
    const ProcessResult r =
        run_process(PFC_BINARY, args, "", StdoutTo::Capture, reencode ? kReencode : kNone);
    EXPECT_EQ(r.exit_code, 0) << file << ": " << r.err;
    EXPECT_EQ(r.err, "") << file;
    return r.out;
  }
  // `input` passes through as `expected`, and re-encoding the output gives the re-encoding
  // of the input (non-empty: the events are there).
  void expect_passes(const std::string& input, const std::string& expected) const {
    write("in.jsonl", input);
    const std::string out = events("in.jsonl", false);
    EXPECT_EQ(out, expected);
    write("out.jsonl", out);
    const std::string reencoded = events("in.jsonl", true);
    EXPECT_NE(reencoded, "");
    EXPECT_NE(reencoded, out);
    EXPECT_EQ(events("out.jsonl", true), reencoded);
  }
  const std::vector<std::string> kNone;
  ScratchDir scratch_{"pfc_pass_through"};
};

// Every form the reader accepts is written as it came, not normalised.
TEST_F(PassThrough, LinesComeOutAsTheyCame) {
  const std::vector<std::pair<const char*, std::string>> table = {
      {"odd spacing",
       "  {  \"provider\" :\"P\",\t\"event\":  \"E\" ,\"fields\":{ \"N\" : 7 ,\"S\":\"x\"} }\t "},
      {"key order", R"({"fields":{"S":"x","D":1.5,"N":7},"pid":3,"event":"E","provider":"P"})"},
      {"escapes", R"({"provider":"P","event":"E","fields":{"N":7,"S":"a\"b\\c\/d\u0041\n\t"}})"},
      {"unicode",
       "{\"provider\":\"P\",\"event\":\"E\",\"fields\":{\"N\":7,\"S\":\"é😀\\ud83d\\ude00\"}}"},
      {"numbers",
       R"({"provider":"P","event":"E","keyword":"0X0a","fields":{"N":7,"S":"","D":1E2}})"},
      {"negative zero and trailing zeros",
       R"({"provider":"P","event":"E","level":4,"fields":{"N":7,"S":"","D":-0.0}})"
       "\n"
       R"({"provider":"P","event":"E","keyword":10,"fields":{"N":7,"S":"","D":0.1000}})"},
      {"provider GUID, ts and cpu kept",
       R"({"provider":"{11111111-2222-3333-4444-555555555555}","id":1,"ts":12.5,"cpu":3,"fields":{"N":7}})"},
      {"group kept (pfc trace show: provider traits)",
       R"({"provider":"P","event":"E","cpu":3,"group":"{11223344-5566-7788-99AA-BBCCDDEEFF00}","fields":{"N":7,"S":""}})"},
      {"payload_hex in upper case",
       R"({"provider":"P","event":"E","payload_hex":"070000004A0000000000000000000040"})"},
  };
  for (const auto& [name, lines] : table) {
    SCOPED_TRACE(name);
    expect_passes(lines + "\n", lines + "\n");
  }
}

TEST_F(PassThrough, CrlfLinesKeepTheirCarriageReturn) {
  const std::string a = R"({"provider":"P","event":"E","fields":{"N":7,"S":"a"}})";
  const std::string b = R"({"provider":"P","event":"E","fields":{"N":8,"S":"b"}})";
  expect_passes(a + "\r\n" + b + "\r\n", a + "\r\n" + b + "\r\n");
}

TEST_F(PassThrough, LastLineWithoutNewlineGetsOne) {
  const std::string a = R"({"provider":"P","event":"E","fields":{"N":7,"S":"a"}})";
  const std::string b = R"({"provider":"P","event":"E","fields":{"N":8,"S":"b"}})";
  expect_passes(a + "\n" + b, a + "\n" + b + "\n");
}

// Blank lines are not events; events no selected session receives are left out.
TEST_F(PassThrough, OnlySelectedEventsAreWritten) {
  const std::string a = R"({"provider":"P","event":"E","fields":{"N":7,"S":"a"}})";
  const std::string b = R"({"provider":"P","event":"E","fields":{"N":8,"S":"b"}})";
  write("in.jsonl", "\n" + a + "\n \t\r\n" + b + "\n\n" + a + "\r\n");
  EXPECT_EQ(events("in.jsonl", false, true), a + "\n" + a + "\r\n");
}

// Lines longer than the reader's 1 MiB block, one of them straddling a block boundary.
TEST_F(PassThrough, LinesOverTheBufferSize) {
  const std::string small = R"({"provider":"P","event":"E","fields":{"N":7,"S":"a"}})";
  const std::string big = R"({"provider":"P","event":"E","fields":{"N":7,"S":")" +
                          std::string(1536 * 1024, 'x') + "\"}}";
  const std::string input = small + "\n" + big + "\n" + big + "\n" + small;
  expect_passes(input, input + "\n");
}

// A JSON array and a capture are re-encoded: their output is the re-encoded one.
TEST_F(PassThrough, OtherInputFormsAreReencoded) {
  write("in.json", R"([{"provider":"P","event":"E","fields":{"S":"a", "N":7}},
 {"provider":"P", "event":"E","fields":{"N":8,"S":"b"}}])");
  const std::string array = events("in.json", false);
  EXPECT_EQ(array, events("in.json", true));
  EXPECT_NE(array.find(R"("level":4,"keyword":"0x0")"), std::string::npos) << array;
  const ProcessResult gen = run_process(
      PFC_BINARY, {"gen", path("s.pfs"), "--count", "50", "--seed", "1", "-o", path("c.cap")});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string capture = events("c.cap", false);
  EXPECT_NE(capture, "");
  EXPECT_EQ(capture, events("c.cap", true));
}

}  // namespace
}  // namespace pfc::test
