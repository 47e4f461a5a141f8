// tests/multiproc/hsdb_share_test.cc — the string maps' Hyperscan databases compiled once
// per namespace (docs/namespace.md "Compiled programs", compiler/hs_image.h): provider
// processes (hsdb_provider) whose program has globs, non-ASCII literals, more than 64
// literals and regexes take the compile service's `prog-KEY.hsdb` instead of compiling
// (counted per process: deserialised, compiled, refused) and route exactly as the
// interpreter does. A missing, truncated, corrupted, foreign-owned file, an entry of
// another key (another Hyperscan version or platform) and a database whose own version
// word Hyperscan refuses each make the next provider compile the databases itself,
// counted with the reason, with the same decisions; `pfc trace programs` shows the
// file's check. Each test has its own namespace; every wait is bounded, every child
// reaped, and the test's service killed at the end.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

#include "child.h"
#include "compiler/hs_image.h"
#include "process.h"
#include "trace_cli_fixture.h"

namespace pfc::multiproc {
namespace {

using Json = nlohmann::json;

constexpr int kWait = 20000;    // ms: one step of a child
constexpr int kNative = 60000;  // ms: until a provider routes natively

// One provider's `status` line, parsed.
struct Status {
  std::map<std::string, uint64_t> n;  // native, interpreted, loaded, compiled, refused
  std::string why;
};

Status status(Child& c) {
  c.send("status");
  const std::string line = c.expect("status ", kWait);
  Status s;
  const size_t why = line.find(" why=");
  std::istringstream in(line.substr(7, why == std::string::npos ? std::string::npos : why - 7));
  for (std::string kv; in >> kv;)
    if (const size_t eq = kv.find('='); eq != std::string::npos)
      s.n[kv.substr(0, eq)] = std::stoull(kv.substr(eq + 1));
  if (why != std::string::npos) s.why = line.substr(why + 5);
  return s;
}

class HsdbShare : public TraceCliFixture {
 protected:
  void SetUp() override {
    TraceCliFixture::SetUp();
    ns_ = dir_ + "/ns";
    ::setenv("PFC_COMPILER_IDLE_MS", "1000", 1);  // the service ends soon after the test
  }
  void TearDown() override {
    kill_service();
    ::unsetenv("PFC_COMPILER_IDLE_MS");
    TraceCliFixture::TearDown();
  }

  void kill_service() const { kill_compile_service(ns_); }

  static std::unique_ptr<Child> provider() {
    auto c = std::make_unique<Child>(Child::Program{HSDB_PROVIDER}, std::vector<std::string>{});
    EXPECT_EQ(c->read_line(kWait), "ready");
    return c;
  }

  // The provider's status once it routes natively (bounded).
  static Status native(Child& c) {
    Status s;
    EXPECT_TRUE(wait_for(
        [&] {
          s = status(c);
          return s.n["native"] == 1 || s.n["interpreted"] != 0;
        },
        kNative));
    EXPECT_EQ(s.n["native"], 1u) << s.why;
    return s;
  }

  // Random events through the provider's native program: the interpreter's decisions,
  // neither nothing nor everything delivered.
  static void expect_interpreter_decisions(Child& c, int seed) {
    c.send("route " + std::to_string(seed));
    const std::string line = c.expect("routed ", kWait);
    unsigned routed = 0, delivered = 0, bad = 1;
    ASSERT_EQ(std::sscanf(line.c_str(), "routed %u delivered %u bad %u", &routed, &delivered, &bad),
              3)
        << line;
    EXPECT_EQ(bad, 0u) << line;
    EXPECT_GT(delivered, routed / 20) << line;
    EXPECT_LT(delivered, routed) << line;
  }

  static void quit(Child& c) {
    c.send("quit");
    EXPECT_EQ(c.wait(kWait), 0);
  }

  // The one program's key (the cache holds one).
  std::string key() const {
    for (const auto& e : std::filesystem::directory_iterator(ns_)) {
      const std::string name = e.path().filename().string();
      if (name.size() == 5 + 32 + 3 && name.rfind("prog-", 0) == 0 && name.ends_with(".so"))
        return name.substr(5, 32);
    }
    return "";
  }

  Json program() const {
    const test::ProcessResult r = pfc({"programs"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out.empty() ? Json() : Json::parse(r.out.substr(0, r.out.find('\n')));
  }

  std::string ns_;
};

// Four providers at once: one compile, every database deserialised from the service's
// file in every process, none compiled there; decisions as the interpreter's.
TEST_F(HsdbShare, ProvidersDeserialiseTheServicesDatabases) {
  std::vector<std::unique_ptr<Child>> providers;
  providers.reserve(4);
  for (int i = 0; i < 4; ++i) providers.push_back(provider());
  std::vector<Status> statuses;
  statuses.reserve(providers.size());
  for (auto& c : providers) statuses.push_back(native(*c));
  const std::string k = key();
  ASSERT_FALSE(k.empty());
  EXPECT_TRUE(std::filesystem::exists(ns_ + "/prog-" + k + ".hsdb"));
  const Json p = program();
  EXPECT_EQ(p["state"], "ready") << p.dump();
  EXPECT_FALSE(p.contains("databases_reason")) << p.dump();
  const uint64_t databases = p["databases"];
  EXPECT_GE(databases, 2u) << p.dump();  // at least the caseless and the `.cs` one
  for (Status& s : statuses) {
    EXPECT_EQ(s.n["loaded"], databases) << s.why;
    EXPECT_EQ(s.n["compiled"], 0u) << s.why;
    EXPECT_EQ(s.n["refused"], 0u) << s.why;
  }
  for (size_t i = 0; i < providers.size(); ++i)
    expect_interpreter_decisions(*providers[i], int(i) + 1);
  for (auto& c : providers) quit(*c);
}

// ---- database files that fail a check ---------------------------------------------------

enum class Damage { Missing, Truncated, Corrupted, OtherKey, HsVersion, ForeignOwned };

class DamagedDatabases : public HsdbShare, public ::testing::WithParamInterface<Damage> {
 protected:
  // Rewrites the file with `edit` applied to every entry (a valid file otherwise).
  void rewrite(const std::string& path, const std::string& k,
               void (*edit)(HsImageEntry&, std::string&)) {
    const std::string bytes = test::read_text(path);
    auto image = parse_hs_image(bytes, k);
    ASSERT_TRUE(image) << image.error().message;
    std::vector<std::string> dbs;
    for (const HsImageEntry& e : image->entries) dbs.emplace_back(e.bytes);
    for (size_t i = 0; i < dbs.size(); ++i) {
      edit(image->entries[i], dbs[i]);
      image->entries[i].bytes = dbs[i];
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        << write_hs_image(image->program, image->entries);
  }

  void damage(const std::string& k) {
    const std::string path = ns_ + "/prog-" + k + ".hsdb";
    std::string bytes = test::read_text(path);
    ASSERT_GT(bytes.size(), 64u);
    switch (GetParam()) {
      case Damage::Missing: std::filesystem::remove(path); break;
      case Damage::Truncated: std::filesystem::resize_file(path, bytes.size() / 2); break;
      case Damage::Corrupted:
        bytes[bytes.size() / 2] ^= 0x40;
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
        break;
      case Damage::OtherKey:  // as a service with another libhs or CPU would have written
        rewrite(path, k, [](HsImageEntry& e, std::string&) { e.key[0] ^= 1; });
        break;
      case Damage::HsVersion:  // Hyperscan's serialised header: magic, then its version
        rewrite(path, k, [](HsImageEntry&, std::string& db) { db[5] ^= 0x7F; });
        break;
      case Damage::ForeignOwned:
        ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0) << std::strerror(errno);
        break;
    }
  }

  static std::string expected_reason() {
    switch (GetParam()) {
      case Damage::Missing: return ".hsdb";
      case Damage::Truncated: return "string database file, byte ";
      case Damage::Corrupted: return "XXH3-128";
      case Damage::OtherKey: return "another Hyperscan version, platform or patterns";
      case Damage::HsVersion: return "Hyperscan refused it";
      case Damage::ForeignOwned: return "owned by another user";
    }
    return "";
  }
};

std::string damage_name(const ::testing::TestParamInfo<Damage>& info) {
  const char* names[] = {"Missing",  "Truncated", "Corrupted",
                         "OtherKey", "HsVersion", "ForeignOwned"};
  return names[static_cast<int>(info.param)];
}

// The first provider loads the databases; the file is damaged; the next provider loads
// the same native code, compiles every database itself (counted as refused, with the
// reason) and routes as the interpreter does, as does the first.
TEST_P(DamagedDatabases, AreCompiledByTheProviderAndCounted) {
  if (GetParam() == Damage::ForeignOwned && ::geteuid() != 0)
    GTEST_SKIP() << "needs root to give a file to another user";
  auto first = provider();
  const uint64_t databases = native(*first).n["loaded"];
  EXPECT_GE(databases, 2u);
  const std::string k = key();
  ASSERT_FALSE(k.empty());
  damage(k);
  // `programs` checks the file as a whole; an entry of another key, or bytes Hyperscan
  // refuses, only a provider finds.
  const Json p = program();
  const Damage d = GetParam();
  if (d == Damage::Truncated || d == Damage::Corrupted || d == Damage::ForeignOwned) {
    ASSERT_TRUE(p.contains("databases_reason")) << p.dump();
    EXPECT_NE(p["databases_reason"].get<std::string>().find(expected_reason()), std::string::npos)
        << p.dump();
  }
  if (d != Damage::OtherKey && d != Damage::HsVersion) {
    EXPECT_EQ(p["databases"], 0) << p.dump();
  }
  EXPECT_EQ(p["state"], "ready") << p.dump();  // the code itself is sound
  auto second = provider();
  const Status s = native(*second);
  EXPECT_EQ(s.n.at("loaded"), 0u) << s.why;
  EXPECT_EQ(s.n.at("compiled"), databases) << s.why;
  EXPECT_EQ(s.n.at("refused"), databases) << s.why;
  EXPECT_NE(s.why.find(expected_reason()), std::string::npos) << s.why;
  expect_interpreter_decisions(*first, 7);
  expect_interpreter_decisions(*second, 8);
  quit(*first);
  quit(*second);
}

INSTANTIATE_TEST_SUITE_P(Files, DamagedDatabases,
                         ::testing::Values(Damage::Missing, Damage::Truncated, Damage::Corrupted,
                                           Damage::OtherKey, Damage::HsVersion,
                                           Damage::ForeignOwned),
                         damage_name);

}  // namespace
}  // namespace pfc::multiproc
