// tests/capture/gen_run_test.cc — `pfc gen` and `pfc run` on binary captures, run as
// processes: determinism per seed, the exact match rate, --count against the per-event
// output on every engine, every field type, and the errors (corrupted/truncated captures,
// unknown providers, unreachable rates, bad options).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli/run_output.h"
#include "tests/cli/process.h"

namespace pfc::test {
namespace {

const char* const kExample = R"(provider Example-Provider {37a59b93-bb25-4cee-97aa-8b6acd0c4df8} {
    event Example_Event_1 (id=1, level=1) { Initiator: wstring; Level: uint32; }
    event Example_Event_2 (id=2, level=1) { Title: wstring; InstanceId: guid; ErrorCode: uint32; }
}
session MyTrace {
    enable Example-Provider level=verbose {
        payload Example_Event_1 all { Initiator is "User"; Level between 7,16 }
        payload Example_Event_2 any { Title contains "UNI";
                                      InstanceId is {0E95CFBC-58D4-44BA-BE40-E63A853536DF};
                                      ErrorCode ne 0 }
    }
}
session Second { enable Example-Provider level=2 { pid 100, 200; } }
)";

// Every type, fixed and field-given counts and lengths, scope and event-ID filters.
const char* const kAllTypes = R"(provider Types {
  event Scalars (id=1, level=4, keyword=0x10) { A: int8; B: uint8; C: int16; D: uint16; E: int32;
    F: uint32; G: int64; H: uint64; I: float; J: double; K: bool; L: guid; M: pointer;
    N: filetime; O: systemtime; P: sid; Q: hexint32; R: hexint64; S: wstring; T: string; }
  event Shaped (id=2, level=2) { N: uint16; Items: uint32[N]; Fixed: int16[3]; W: wstring length=5;
    Len: uint8; Name: string length=Len; Blob: binary length=4; Names: wstring[2]; }
}
session One { enable Types level=4 { payload Scalars all { A lt 0; S contains "ab"; L is {0E95CFBC-58D4-44BA-BE40-E63A853536DF} } } }
session Two { enable Types any=0x10 { pid 4, 8; event_id in 1; payload Scalars any { F between 10,20; T is "xyz" } } }
session Three { enable Types { exe "app.exe"; payload Shaped where N eq 3 or Name contains "q" or not W isnot "hello"; } }
)";

const char* const kOther = R"(provider Other { event X (id=1) { V: uint32; } }
session S { enable Other; }
)";

class GenRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "pfc_gen_run_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    run_process("/bin/mkdir", {"-p", dir_});
    write("example.pfs", kExample);
    write("types.pfs", kAllTypes);
    write("other.pfs", kOther);
  }
  std::string path(const std::string& name) const { return dir_ + name; }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  ProcessResult pfc(const std::vector<std::string>& args,
                    const std::vector<std::string>& env = {}) const {
    return run_process(PFC_BINARY, args, dir_, StdoutTo::Capture, env);
  }

  std::string dir_;
};

TEST_F(GenRun, SameSeedSameBytesOtherSeedOtherBytes) {
  for (const char* out : {"a.cap", "b.cap"}) {
    ASSERT_EQ(pfc({"gen", "example.pfs", "--count", "300", "--seed", "42", "-o", out}).exit_code,
              0);
  }
  ASSERT_EQ(pfc({"gen", "example.pfs", "--count", "300", "--seed", "43", "-o", "c.cap"}).exit_code,
            0);
  EXPECT_EQ(read("a.cap"), read("b.cap"));
  EXPECT_NE(read("a.cap"), read("c.cap"));
  EXPECT_EQ(read("a.cap").substr(0, 8), std::string("\x89PFCCAP\n", 8));
}

TEST_F(GenRun, MatchRateIsExactAndEveryEngineCountsTheSame) {
  const ProcessResult gen = pfc({"gen", "example.pfs", "--count", "400", "--seed", "7",
                                 "--match-rate", "0.25", "-o", "r.cap"});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_EQ(gen.out, "wrote 400 events (100 matching) to r.cap\n");
  std::string lines;
  for (const char* engine : {"interp", "jit", "auto"}) {
    const ProcessResult count =
        pfc({"run", "example.pfs", "--events", "r.cap", "--count", "--engine", engine});
    ASSERT_EQ(count.exit_code, 0) << count.err;
    EXPECT_EQ(count.out.rfind(
                  "{\"events\":400,\"matched\":100,\"engine\":\"" + std::string(engine) + "\"", 0),
              0u)
        << count.out;
    EXPECT_NE(count.out.find("\"sessions\":{\"MyTrace\":{\"delivered\":"), std::string::npos);
    const ProcessResult each = pfc({"run", "example.pfs", "--events", "r.cap", "--engine", engine});
    ASSERT_EQ(each.exit_code, 0) << each.err;
    if (lines.empty()) lines = each.out;
    EXPECT_EQ(each.out, lines) << engine;
  }
  size_t delivered = 0, total = 0;
  for (size_t pos = 0; (pos = lines.find("\"sessions\":[", pos)) != std::string::npos;
       ++pos, ++total)
    delivered += lines[pos + 12] != ']';
  EXPECT_EQ(total, 400u);
  EXPECT_EQ(delivered, 100u);
}

TEST_F(GenRun, EveryTypeGeneratesAndExplainAgrees) {
  for (const char* rate : {"0", "0.5", "1"}) {
    const ProcessResult gen = pfc(
        {"gen", "types.pfs", "--count", "500", "--seed", "3", "--match-rate", rate, "-o", "t.cap"});
    ASSERT_EQ(gen.exit_code, 0) << rate << ": " << gen.err;
    for (const char* engine : {"interp", "jit"}) {
      const ProcessResult run =
          pfc({"run", "types.pfs", "--events", "t.cap", "--explain", "--engine", engine});
      EXPECT_EQ(run.exit_code, 0) << rate << " " << engine << ": " << run.err;
    }
  }
}

TEST_F(GenRun, CountWorksOnJsonLinesToo) {
  write(
      "e.jsonl",
      R"({"provider":"Example-Provider","event":"Example_Event_1","fields":{"Initiator":"User","Level":9}})"
      "\n");
  const ProcessResult r = pfc({"run", "example.pfs", "--events", "e.jsonl", "--count"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"events\":1,\"matched\":1,\"engine\":\"auto\"", 0), 0u) << r.out;
}

// The capture reader caches the schema's event per (provider, id, version)
// (io/capture_source.cc): records that switch provider, version or ID from one to the next,
// keys that share an ID across providers or versions, undeclared events and more keys than
// the cache has slots must all decode as the JSON reader (which has no cache) decodes them.
TEST_F(GenRun, CaptureEventLookupFollowsEveryKeyChange) {
  std::string script = "provider P1 { event F (id=1, version=1) { C: uint16; }";
  for (int id = 1; id <= 300; ++id)
    script += " event E" + std::to_string(id) + " (id=" + std::to_string(id) + ") { A: uint32; }";
  script +=
      " }\nprovider P2 { event G (id=1) { B: wstring; } }\nsession S { enable P1; enable P2; }\n";
  write("keys.pfs", script);
  const std::string common =
      R"("level":0,"keyword":"0x0","opcode":0,"task":0,"channel":0,"pid":1,"tid":2,)";
  const auto line = [&](const char* provider, int id, int version, const std::string& hex) {
    return std::string(R"({"provider":")") + provider + R"(","id":)" + std::to_string(id) +
           R"(,"version":)" + std::to_string(version) + "," + common + R"("payload_hex":")" + hex +
           "\"}\n";
  };
  std::string jsonl;
  for (int round = 0; round < 2; ++round) {
    for (int id = 1; id <= 300; ++id) {
      jsonl += line("P1", id, 0, "2a000000");
      if (id % 7 == 0) jsonl += line("P1", 1, 1, "0700");          // same ID, other version
      if (id % 5 == 0) jsonl += line("P2", 1, 0, "680069000000");  // same ID, other provider
      if (id % 11 == 0) jsonl += line("P2", 1, 1, "0800");         // undeclared in P2 only
      if (id % 13 == 0) jsonl += line("P1", 400, 0, "");           // undeclared
    }
  }
  write("keys.jsonl", jsonl);
  ASSERT_EQ(
      pfc({"run", "keys.pfs", "--events", "keys.jsonl", "--output", "capture", "-o", "keys.cap"})
          .exit_code,
      0);
  // Re-encoded (cli/run_output.h): a JSON Lines line would otherwise be written as it came.
  const ProcessResult from_json =
      pfc({"run", "keys.pfs", "--events", "keys.jsonl", "--output", "events"},
          {std::string(cli::kReencodeEventsVar) + "=1"});
  const ProcessResult from_capture =
      pfc({"run", "keys.pfs", "--events", "keys.cap", "--output", "events"});
  ASSERT_EQ(from_json.exit_code, 0) << from_json.err;
  ASSERT_EQ(from_capture.exit_code, 0) << from_capture.err;
  EXPECT_NE(from_json.out.find(R"("event":"E300")"), std::string::npos);
  EXPECT_NE(from_json.out.find(R"("provider":"P2","event":"G")"), std::string::npos);
  EXPECT_NE(from_json.out.find(R"("provider":"P2","id":1,"version":1)"), std::string::npos);
  EXPECT_EQ(from_capture.out, from_json.out);
}

TEST_F(GenRun, CorruptedAndTruncatedCapturesAreErrors) {
  ASSERT_EQ(pfc({"gen", "example.pfs", "--count", "20", "--seed", "1", "-o", "g.cap"}).exit_code,
            0);
  std::string bytes = read("g.cap");
  std::string flipped = bytes;
  flipped[bytes.size() - 3] ^= 0x55;
  write("flipped.cap", flipped);
  // Captures are streamed: the checksum is compared after the last record, so the records
  // (structurally sound here) have been routed and printed before the error.
  ProcessResult r = pfc({"run", "example.pfs", "--events", "flipped.cap"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("{\"seq\":19,"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("pfc: error: flipped.cap: capture: checksum mismatch"), std::string::npos)
      << r.err;
  write("cut.cap", bytes.substr(0, bytes.size() - 10));
  r = pfc({"run", "example.pfs", "--events", "cut.cap", "--count"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("pfc: error: cut.cap: capture: record 19 at offset "), std::string::npos)
      << r.err;
}

TEST_F(GenRun, ProviderMissingFromTheScriptIsAnError) {
  ASSERT_EQ(pfc({"gen", "other.pfs", "--count", "5", "--seed", "1", "-o", "o.cap"}).exit_code, 0);
  const ProcessResult r = pfc({"run", "example.pfs", "--events", "o.cap"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("is not declared in the script"), std::string::npos) << r.err;
}

TEST_F(GenRun, UnreachableRateIsAnError) {
  // Session S takes every event of Other: no event can fail its filters.
  const ProcessResult r = pfc(
      {"gen", "other.pfs", "--count", "5", "--seed", "1", "--match-rate", "0.5", "-o", "u.cap"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "pfc: error: --match-rate 0.5 cannot be reached: none of 20000 random events "
            "fails the sessions' filters\n");
}

TEST_F(GenRun, UsageErrors) {
  EXPECT_EQ(pfc({"gen", "example.pfs", "--seed", "1", "-o", "x.cap"}).exit_code, 2);
  EXPECT_EQ(pfc({"gen", "example.pfs", "--count", "1", "--seed", "1"}).exit_code, 2);
  EXPECT_EQ(pfc({"gen", "example.pfs", "--count", "1", "--seed", "1", "-o", "x.cap", "--match-rate",
                 "1.5"})
                .exit_code,
            2);
  const ProcessResult r =
      pfc({"gen", "example.pfs", "--count", "1", "--seed", "1", "-o", "nodir/x.cap"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("pfc: error: cannot write nodir/x.cap: No such file or directory"),
            std::string::npos);
}

}  // namespace
}  // namespace pfc::test
