// tests/multiproc/seed_sample_test.cc — the EnableTraceEx2 documentation's sample
// (examples/etw/seed-sample.c, ported mechanically) as a controller process against two
// provider processes (trace_actor example 1|2) and a file consumer (trace_actor
// consume-file: OpenTraceW(LogFileName) + ProcessTrace): the file holds exactly the events
// `pfc run` passes with the sample's filters. It skips, saying so, only while StartTraceW
// answers ERROR_NOT_SUPPORTED (50) for log-file sessions. The real-time variant (the same
// filters as a script through `pfc trace`) runs today.
#include <gtest/gtest.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "child.h"
#include "process.h"
#include "trace_cli_fixture.h"

namespace pfc::multiproc {
namespace {

using test::ProcessResult;
using test::run_process;
using Json = nlohmann::json;

constexpr int kWait = 20000;
constexpr const char* kInstance = "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}";
constexpr const char* kOther = "{12345678-58D4-44BA-BE40-E63A853536DF}";

// What trace_actor example 1 and 2 write (tests/multiproc/trace_actor.c), in order.
struct Written {
  int id;
  const char* text;  // Initiator or Title
  const char* guid;  // InstanceId (event 2)
  unsigned value;    // Level or ErrorCode
};
const std::vector<Written> kMix = {
    {1, "User", nullptr, 8},    {1, "user", nullptr, 10},      {1, "User", nullptr, 6},
    {1, "Admin", nullptr, 8},   {1, "User", nullptr, 16},      {1, "User", nullptr, 17},
    {1, "USER", nullptr, 7},    {2, "UNIX box", kInstance, 5}, {2, "unicorn", kInstance, 1},
    {2, "UNI", kOther, 3},      {2, "UNI-0", kInstance, 0},    {2, "Plain", kInstance, 9},
    {2, "UNIQUE", kInstance, 2}};

using Key = std::tuple<int, std::string, unsigned>;  // (id, text, value): unique in kMix

std::string mix_jsonl() {
  std::string out;
  for (const Written& w : kMix) {
    Json e = {{"provider", "Example-Provider"}};
    if (w.id == 1) {
      e["event"] = "Example_Event_1";
      e["fields"] = {{"Initiator", w.text}, {"Level", w.value}};
    } else {
      e["event"] = "Example_Event_2";
      e["fields"] = {{"Title", w.text}, {"InstanceId", w.guid}, {"ErrorCode", w.value}};
    }
    out += e.dump() + "\n";
  }
  return out;
}

// The keys of kMix that `pfc run SCRIPT` delivers to session MyTrace.
std::multiset<Key> expected_by_run(const std::string& script, const std::string& events) {
  const ProcessResult run = run_process(PFC_BINARY, {"run", script, "--events", events});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::multiset<Key> out;
  std::istringstream lines(run.out);
  size_t seq = 0;
  for (std::string line; std::getline(lines, line); ++seq) {
    const Json r = Json::parse(line);
    if (seq < kMix.size() && !r["sessions"].empty())
      out.insert({kMix[seq].id, kMix[seq].text, kMix[seq].value});
  }
  EXPECT_EQ(seq, kMix.size());
  return out;
}

// (id, text, value) of a payload in hex: a NUL-terminated UTF-16 string (ASCII here) first,
// a uint32 last.
Key key_of_hex(int id, const std::string& hex) {
  std::vector<uint8_t> b;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    b.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  std::string text;
  for (size_t i = 0; i + 1 < b.size() && (b[i] | b[i + 1]) != 0; i += 2)
    text.push_back(static_cast<char>(b[i]));
  unsigned value = 0;
  if (b.size() >= 4)
    for (size_t i = b.size(); i-- > b.size() - 4;) value = value * 256 + b[i];
  return {id, text, value};
}

class SeedSample : public TraceCliFixture {
 protected:
  void SetUp() override {
    TraceCliFixture::SetUp();
    std::ifstream in(PFC_SOURCE_DIR "/examples/etw-sample.pfs");
    script_text_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    ASSERT_NE(script_text_.find("payload Example_Event_2 any"), std::string::npos);
    events_ = write_file("mix.jsonl", mix_jsonl());
  }

  std::string script_text_;
  std::string events_;
};

TEST_F(SeedSample, ControllerProvidersAndFileConsumerAsProcesses) {
  std::filesystem::copy_file(PFC_SOURCE_DIR "/examples/etw/Example.man",
                             dir_ + "/ExampleManifest.man");
  ASSERT_EQ(::chdir(dir_.c_str()), 0);  // the sample's relative paths
  Child one({"example", "1"});
  Child two({"example", "2"});
  Child sample(Child::Program{SEED_SAMPLE}, {}, {"PFC_SEED_SLEEP_MS=8000"});
  const std::string first = sample.read_line(kWait);
  if (first.starts_with("StartTrace() failed with 50")) {
    EXPECT_EQ(sample.wait(kWait), 50);
    GTEST_SKIP() << "log-file sessions are not supported yet: StartTraceW answers "
                    "ERROR_NOT_SUPPORTED (50) for the seed sample's SystemTrace.etl";
  }
  EXPECT_EQ(first, "");  // the sample prints nothing when every step succeeds
  EXPECT_EQ(one.expect("example", kWait), "example 7");
  EXPECT_EQ(two.expect("example", kWait), "example 6");
  ASSERT_EQ(sample.wait(30000), 0);
  one.send("quit");
  two.send("quit");
  EXPECT_EQ(one.wait(kWait), 0);
  EXPECT_EQ(two.wait(kWait), 0);

  Child consumer({"consume-file", dir_ + "/SystemTrace.etl"});
  std::multiset<Key> got;
  std::string line;
  for (line = consumer.read_line(kWait); line.starts_with("event ");
       line = consumer.read_line(kWait)) {
    unsigned pid = 0, id = 0;
    char hex[512] = {};
    ASSERT_EQ(std::sscanf(line.c_str(), "event %u %u %511s", &pid, &id, hex), 3) << line;
    EXPECT_TRUE(pid == static_cast<unsigned>(one.pid()) || pid == static_cast<unsigned>(two.pid()));
    got.insert(key_of_hex(static_cast<int>(id), hex));
  }
  EXPECT_EQ(line, "done 0");
  EXPECT_EQ(consumer.wait(kWait), 0);
  // The sample passes EventMatchANY = FALSE for Example_Event_2: `all`, as printed.
  std::string as_printed = script_text_;
  as_printed.replace(as_printed.find("payload Example_Event_2 any"), 27,
                     "payload Example_Event_2 all");
  const std::multiset<Key> want = expected_by_run(write_file("seed.pfs", as_printed), events_);
  EXPECT_EQ(got, want);
  EXPECT_GT(want.size(), 0u);
}

// The same filters (with the documented OR for Example_Event_2) as a script through
// `pfc trace`, in real time: the consumer gets exactly what `pfc run` passes, decoded with
// the schema published with the enable.
TEST_F(SeedSample, RealTimeVariantThroughPfcTrace) {
  const std::string script = write_file("etw-sample.pfs", script_text_);
  ASSERT_EQ(pfc({"start", "MyTrace"}).exit_code, 0);
  const ProcessResult en = pfc({"enable", "MyTrace", "--script", script});
  ASSERT_EQ(en.exit_code, 0) << en.err;
  Child one({"example", "1"});
  Child two({"example", "2"});
  EXPECT_EQ(one.expect("example", kWait), "example 7");
  EXPECT_EQ(two.expect("example", kWait), "example 6");
  const ProcessResult shown = pfc({"show", "MyTrace"});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  std::multiset<Key> got;
  std::istringstream lines(shown.out);
  for (std::string line; std::getline(lines, line);) {
    const Json e = Json::parse(line);
    const Json& f = e["fields"];
    const bool first = e["event"] == "Example_Event_1";
    got.insert({e["id"].get<int>(), f[first ? "Initiator" : "Title"].get<std::string>(),
                f[first ? "Level" : "ErrorCode"].get<unsigned>()});
  }
  const std::multiset<Key> want = expected_by_run(script, events_);
  EXPECT_EQ(got, want);
  EXPECT_GT(want.size(), 2u);
  EXPECT_LT(want.size(), kMix.size());
  one.send("quit");
  two.send("quit");
  EXPECT_EQ(one.wait(kWait), 0);
  EXPECT_EQ(two.wait(kWait), 0);
  EXPECT_EQ(pfc({"stop", "MyTrace"}).exit_code, 0);
}

}  // namespace
}  // namespace pfc::multiproc
