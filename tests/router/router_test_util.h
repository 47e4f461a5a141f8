// tests/router/router_test_util.h — fixtures shared by the router suites: a router over
// the fake compiler, provider/GUID/event builders and an enable-callback recorder.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "runtime/router.h"
#include "tests/router/fake_compiler.h"

namespace pfc::test {

inline Guid guid_n(uint32_t n) {
  Guid g;
  g.data1 = n;
  g.data2 = 0x5EED;
  return g;
}

inline ProviderDef make_provider(uint32_t n, bool legacy = false) {
  ProviderDef d;
  d.name = "Provider" + std::to_string(n);
  d.guid = guid_n(n);
  d.legacy = legacy;
  return d;
}

inline EventView event_at(uint8_t level, uint64_t keyword = 0) {
  EventView e;
  e.desc.level = level;
  e.desc.keyword = keyword;
  return e;
}

inline EnableParams params(uint8_t level, uint64_t any = 0, uint64_t all = 0,
                           uint32_t properties = 0, Guid source = {}) {
  EnableParams p;
  p.level = level;
  p.any = any;
  p.all = all;
  p.properties = properties;
  p.source_id = source;
  return p;
}

inline CompositeState state(uint8_t level, uint64_t any, uint64_t all, uint64_t sessions) {
  return CompositeState{sessions != 0, level, any, all, sessions};
}

// Collects every notification of one registration.
struct Recorder {
  std::vector<EnableNotification> notes;
  EnableCallback callback() {
    return [this](const EnableNotification& n) { notes.push_back(n); };
  }
};

class RouterFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    compiler_ = std::make_shared<FakeCompiler>();
    auto r = Router::create(compiler_);
    ASSERT_TRUE(r.has_value());
    router_ = std::move(*r);
  }
  void TearDown() override {
    router_.reset();
    EXPECT_EQ(FakeProgram::live.load(), 0) << "programs leaked";
    EXPECT_EQ(FakeProgram::bad_reads.load(), 0u);
  }
  SessionId new_session(const std::string& name, std::shared_ptr<Sink> sink = nullptr) {
    auto s = router_->create_session(name, std::move(sink));
    EXPECT_TRUE(s.has_value()) << (s ? "" : s.error().message);
    return s.value_or(0);
  }
  ProviderHandle reg(const ProviderDef& def, EnableCallback cb = {}) {
    auto h = router_->register_provider(def, std::move(cb));
    EXPECT_TRUE(h.has_value()) << (h ? "" : h.error().message);
    return h.value_or(nullptr);
  }

  std::shared_ptr<FakeCompiler> compiler_;
  std::unique_ptr<Router> router_;
};

}  // namespace pfc::test
