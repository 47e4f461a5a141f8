// tests/multiproc/trace_script_test.cc — `pfc trace enable --script` as processes: a
// provider process that never saw the script (trace_actor) filters, for sessions enabled
// from the script with every filter kind of the language (`where` expressions included),
// exactly as `pfc run SCRIPT` decides on the same events; `pfc trace show` decodes fields
// with the schema published with the enable.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <string>
#include <utility>
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
constexpr const char* kGuid = "{00000009-0000-4000-8000-000000000001}";

// Sessions All (everything) and W1..W7: each a different mix of filters. W6's stack_id
// filter selects stacks only, so its delivered set is what the other filters say. W7 uses
// the language's own operators (prefix, suffix, glob, regex, `.cs` forms, `in` / `not in`,
// field-to-field).
constexpr const char* kScript = R"(provider Actor {00000009-0000-4000-8000-000000000001} {
    event One (id=1, level=4) { Seq: uint32; }
    event Two (id=2, level=4) { Seq: uint32; }
    event Named (id=5, level=4) { Name: wstring; Seq: uint32; Mod: uint32; }
}
session All { enable Actor level=verbose; }
session W1 {
    enable Actor level=verbose {
        payload One where (Seq lt 8 or Seq gt 30) and not Seq eq 4;
        payload Two where Seq between 5,25 or Seq modulo 9;
    }
}
session W2 {
    enable Actor {
        event_id not in 3;
        payload Two any { Seq eq 1; Seq eq 5; Seq eq 9 } group=all;
        payload Named where Name contains "item-2" or not (Name is "ITEM-1" or Seq lt 10);
    }
}
session W3 {
    enable Actor { exe "trace_actor"; payload Named where Name isnot "item-0" and Seq modulo 2; }
}
session W4 { enable Actor { package_id "Pkg"; } }
session W5 { enable Actor level=error; }
session W6 {
    enable Actor properties=(stack_trace) {
        stack_id in 1;
        event_id in 1, 5;
        payload Named where not not Seq ge 7;
    }
}
session W7 {
    enable Actor {
        payload Named where (Name startswith "item" and (Name endswith.cs "-2" or Name matches "*-[34]"))
            or (Name regex.cs "^It.m-1$" and Seq gt Mod) or Name contains.cs "M-0";
        payload Two where Seq not in 6, 10, 14;
        payload One where Seq in 4, 8, 33;
    }
}
)";
const std::vector<std::string> kFiltered = {"W1", "W2", "W3", "W4", "W5", "W6", "W7"};

using Key = std::pair<int, unsigned>;  // (event id, Seq)

Key key_of(const Json& event) {
  if (event.contains("fields")) return {event["id"].get<int>(), event["fields"]["Seq"]};
  // Events the schema does not declare (ids 3, 4): Seq is the 4-byte payload.
  const std::string hex = event["payload_hex"];
  unsigned seq = 0;
  for (int i = 3; i >= 0; --i) seq = seq * 256 + std::stoul(hex.substr(2 * i, 2), nullptr, 16);
  return {event["id"].get<int>(), seq};
}

class TraceScript : public TraceCliFixture {
 protected:
  void SetUp() override {
    TraceCliFixture::SetUp();
    script_ = write_file("w.pfs", kScript);
  }

  // `pfc trace show NAME` (no --follow): its events, one JSON object per line.
  std::vector<Json> show(const std::string& name) {
    const ProcessResult r = pfc({"show", name});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::vector<Json> out;
    size_t start = 0;
    for (size_t nl; (nl = r.out.find('\n', start)) != std::string::npos; start = nl + 1)
      out.push_back(Json::parse(r.out.substr(start, nl - start)));
    return out;
  }

  std::string script_;
};

TEST_F(TraceScript, ProviderProcessFiltersAsPfcRunDoes) {
  for (const std::string& s :
       std::vector<std::string>{"All", "W1", "W2", "W3", "W4", "W5", "W6", "W7"}) {
    ASSERT_EQ(pfc({"start", s}).exit_code, 0) << s;
    const ProcessResult en = pfc({"enable", s, "--script", script_});
    ASSERT_EQ(en.exit_code, 0) << s << ": " << en.err;
  }
  Child provider({"provider", "9"});
  ASSERT_NE(provider.expect("callback 1", kWait), "");
  provider.send("write 40 1");
  ASSERT_NE(provider.expect("wrote 10 10 10 10", kWait), "");
  provider.send("named 30");
  ASSERT_NE(provider.expect("named 30", kWait), "");

  // Every event, decoded with the published schema (no --schema given).
  std::vector<Json> all = show("All");
  ASSERT_EQ(all.size(), 70u);
  std::string lines;
  std::vector<Key> keys;
  for (Json& e : all) {
    EXPECT_EQ(e["provider"], "Actor");
    if (e["id"] == 5) {
      EXPECT_EQ(e["event"], "Named");
      EXPECT_TRUE(e["fields"]["Name"].is_string()) << e.dump();
    }
    keys.push_back(key_of(e));
    e["exe"] = TRACE_ACTOR;  // the scope `show` cannot see (EVENT_RECORD has no image name)
    lines += e.dump() + "\n";
  }
  const std::string events = write_file("all.jsonl", lines);
  const ProcessResult run = run_process(PFC_BINARY, {"run", script_, "--events", events});
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // The interpreter's decisions, per session: the keys it delivers.
  std::map<std::string, std::set<Key>> expected;
  size_t start = 0, seq = 0;
  for (size_t nl; (nl = run.out.find('\n', start)) != std::string::npos; start = nl + 1, ++seq) {
    const Json r = Json::parse(run.out.substr(start, nl - start));
    ASSERT_LT(seq, keys.size());
    for (const Json& s : r["sessions"]) expected[s.get<std::string>()].insert(keys[seq]);
  }
  ASSERT_EQ(seq, keys.size());
  EXPECT_EQ(expected["All"].size(), 70u);
  for (const std::string& s : kFiltered) {
    std::set<Key> got;
    for (const Json& e : show(s)) EXPECT_TRUE(got.insert(key_of(e)).second) << s << e.dump();
    EXPECT_EQ(got, expected[s]) << s;
  }
  // Not vacuous: the filters keep some events and drop others.
  EXPECT_EQ(expected["W4"].size(), 0u);
  EXPECT_EQ(expected["W5"].size(), 0u);
  for (const char* s : {"W1", "W2", "W3", "W6", "W7"}) {
    EXPECT_GT(expected[s].size(), 3u) << s;
    EXPECT_LT(expected[s].size(), 60u) << s;
  }
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
}

// A manifest declaring trace_actor's provider as "ManActor": event 1 "First" { Seq }.
constexpr const char* kManifest = R"(<?xml version="1.0" encoding="UTF-8"?>
<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"
    xmlns:win="http://manifests.microsoft.com/win/2004/08/windows/events">
  <instrumentation><events>
    <provider name="ManActor" guid="{00000009-0000-4000-8000-000000000001}" symbol="M"
              resourceFileName="m" messageFileName="m">
      <events><event value="1" version="0" level="win:Informational" template="T"
                     symbol="First"/></events>
      <templates><template tid="T">
        <data name="Seq" inType="win:UInt32"/>
      </template></templates>
    </provider>
  </events></instrumentation>
</instrumentationManifest>
)";

TEST_F(TraceScript, ScriptErrorsAndMissingSessions) {
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  const std::string bad = write_file("bad.pfs",
                                     "provider A { event E (id=1) { X: uint32; } }\n"
                                     "session S { enable A { payload E where X gt \"abc\"; } }\n");
  const ProcessResult r = pfc({"enable", "S", "--script", bad});
  EXPECT_EQ(r.exit_code, 1);  // errors in the script: docs/cli.md "Exit codes"
  EXPECT_NE(r.err.find(bad + ":2:45: error: invalid integer 'abc'"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(pfc({"query", "S"}).out.find("\"providers\":[]"), std::string::npos);
  const ProcessResult missing = pfc({"enable", "S", "--script", dir_ + "/none.pfs"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err.rfind("pfc: error: cannot read ", 0), 0u) << missing.err;
  const ProcessResult no_decl = pfc({"enable", "S", "--script", script_, "--session", "Nope"});
  EXPECT_EQ(no_decl.exit_code, 1);
  EXPECT_NE(no_decl.err.find("no session named 'Nope' in the script"), std::string::npos);
  const ProcessResult no_live = pfc({"enable", "Nope", "--script", script_, "--session", "W1"});
  EXPECT_EQ(no_live.exit_code, 1);
  EXPECT_EQ(no_live.err, "pfc: error: no session named 'Nope'\n");
  for (const std::vector<std::string>& usage : std::vector<std::vector<std::string>>{
           {"enable", "S", kGuid, "--script", script_},
           {"enable", "S", "--script", script_, "--schema", script_},
           {"enable", "S", "Actor", "--schema", dir_ + "/x.txt"},
           {"show", "S", "--schema", dir_ + "/x.txt"}}) {
    const ProcessResult u = pfc(usage);
    EXPECT_EQ(u.exit_code, 2) << usage.back() << ": " << u.err;
    EXPECT_EQ(u.err.rfind("pfc: error: ", 0), 0u) << u.err;
  }
  EXPECT_NE(pfc({"query", "S"}).out.find("\"providers\":[]"), std::string::npos);
  // The language's own operators reach provider processes in the pfc enable extension.
  const std::string ext = write_file("ext.pfs",
                                     "provider A { event E (id=1) { N: wstring; X: uint32; } }\n"
                                     "session S { enable A { payload E where N startswith \"ab\""
                                     " or N regex \"a+b\" or X gt X; } }\n");
  const ProcessResult sent_ext = pfc({"enable", "S", "--script", ext});
  EXPECT_EQ(sent_ext.exit_code, 0) << sent_ext.err;
  EXPECT_NE(pfc({"query", "S"}).out.find("\"providers\":[\"{"), std::string::npos);
  const std::string in = write_file("in.pfs",
                                    "provider A { event E (id=1) { N: wstring; X: uint32; } }\n"
                                    "session S { enable A { payload E where X in 1, 5; } }\n");
  const ProcessResult sent = pfc({"enable", "S", "--script", in});
  EXPECT_EQ(sent.exit_code, 0) << sent.err;
}

TEST_F(TraceScript, ProviderNamesResolveThroughSchemasElseTheirNameHash) {
  const std::string man = write_file("actor.man", kManifest);
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  const std::string guid = std::string("\"") + kGuid + "\"";
  EXPECT_NE(pfc({"enable", "S", "Actor", "--schema", script_}).out.find("[" + guid + "]"),
            std::string::npos);
  EXPECT_EQ(pfc({"disable", "S", "ManActor", "--schema", man}).exit_code, 0);
  EXPECT_NE(pfc({"query", "S"}).out.find("\"providers\":[]"), std::string::npos);
  // Without a schema the name is its EventSource GUID, not the manifest's.
  const ProcessResult hashed = pfc({"enable", "S", "ManActor"});
  EXPECT_EQ(hashed.exit_code, 0);
  EXPECT_EQ(hashed.out.find(kGuid), std::string::npos) << hashed.out;
  EXPECT_NE(hashed.out.find("\"providers\":[\"{"), std::string::npos) << hashed.out;
}

// `show --schema FILE.man` decodes a provider enabled without a script; without it the
// payload stays hex.
TEST_F(TraceScript, ShowDecodesWithAManifestSchema) {
  const std::string man = write_file("actor.man", kManifest);
  ASSERT_EQ(pfc({"start", "S"}).exit_code, 0);
  ASSERT_EQ(pfc({"enable", "S", kGuid, "--event-id", "1"}).exit_code, 0);
  Child provider({"provider", "9"});
  ASSERT_NE(provider.expect("callback 1", kWait), "");
  provider.send("write 8 1");
  ASSERT_NE(provider.expect("wrote 2 2 2 2", kWait), "");
  const ProcessResult shown = pfc({"show", "S", "--schema", man});
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  const std::string first = shown.out.substr(0, shown.out.find('\n'));
  const Json e = Json::parse(first);
  EXPECT_EQ(e["provider"], "ManActor");
  EXPECT_EQ(e["event"], "First");
  EXPECT_EQ(e["fields"]["Seq"], 0);
  EXPECT_FALSE(e.contains("payload_hex"));
  provider.send("write 4 1");
  ASSERT_NE(provider.expect("wrote 1 1 1 1", kWait), "");
  const std::vector<Json> plain = show("S");
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_EQ(plain[0]["provider"], kGuid);
  EXPECT_EQ(plain[0]["payload_hex"], "00000000");
  provider.send("quit");
  EXPECT_EQ(provider.wait(kWait), 0);
}

TEST_F(TraceScript, EverySubcommandHasHelpWithExamples) {
  for (const char* sub : {"start", "enable", "disable", "list", "query", "stop", "show"}) {
    const ProcessResult r = pfc({sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Examples:\n  pfc trace " + std::string(sub)), std::string::npos)
        << sub << ": " << r.out;
  }
  const ProcessResult top = pfc({"--help"});
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.out.find("Examples:"), std::string::npos);
}

}  // namespace
}  // namespace pfc::multiproc
