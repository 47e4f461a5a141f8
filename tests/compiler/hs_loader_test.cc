// tests/compiler/hs_loader_test.cc — Hyperscan loaded with dlopen (compiler/hs_loader.h,
// docs/jit.md "String indexing"): a matcher of literals and globs loads it at its first
// database, one of regexes only never does, and when it cannot be loaded (ctest runs this
// binary a second time with PFC_HYPERSCAN_LIBRARY naming a missing file) every pattern is
// tested on its own, with the same masks, and hyperscan_status() says why.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "compiler/hs_loader.h"
#include "compiler/lower.h"
#include "compiler/str_match.h"
#include "test_util.h"

namespace pfc::testing {
namespace {

using internal::hyperscan_status;

bool libhs_mapped() {
  std::ifstream maps("/proc/self/maps");
  const std::string text{std::istreambuf_iterator<char>(maps), {}};
  return text.find("libhs.so") != std::string::npos;
}

// The replacement library ctest names, or "" (the build's libhs).
std::string replacement() {
  const char* env = std::getenv("PFC_HYPERSCAN_LIBRARY");
  return env != nullptr ? env : "";
}

// A program whose sessions put these operators' patterns on one UTF-16 field.
ir::Program program(const std::vector<PayloadOp>& ops) {
  ProgramSpec spec;
  spec.provider.name = "P";
  spec.provider.events.push_back(event_def("E", 1, 0, {field("s", InType::UnicodeString)}));
  const char* texts[] = {"user", "Super", "*u?er*", "^zz[0-9]+$", "ELVIN", "r1"};
  for (uint32_t s = 0; s < 12; ++s) {
    EnableParams p;
    const PayloadOp op = ops[s % ops.size()];
    const std::string text = op == PayloadOp::Regex ? "u.er" + std::to_string(s) : texts[s % 6];
    p.payload = {filter(1, {pred_str(0, op, text + std::to_string(s % 3))})};
    spec.sessions.emplace_back(s, p);
  }
  auto prog = lower(spec);
  EXPECT_TRUE(prog.has_value());
  return prog ? std::move(*prog) : ir::Program{};
}

// The matcher's masks are what testing each pattern on its own gives.
void expect_exact(const ir::Program& prog) {
  ASSERT_EQ(prog.str_maps.size(), 1u);
  expect_str_maps_exact(
      prog, {u"SuperUser0 and user1 \u212AELVIN2", u"S\u00FCper user2", u"u?er0 uxer4 r11", u""});
}

TEST(HsLoader, LiteralsAndGlobsLoadItAtTheFirstDatabase) {
  ASSERT_FALSE(hyperscan_status().tried);  // each test is its own process under ctest
  EXPECT_FALSE(libhs_mapped());
  const ir::Program prog =
      program({PayloadOp::Contains, PayloadOp::StartsWithCs, PayloadOp::Matches, PayloadOp::Is});
  const internal::HsStatus s = hyperscan_status();
  EXPECT_TRUE(s.tried);
  if (replacement().empty()) {
    EXPECT_TRUE(s.loaded) << s.message;
    EXPECT_EQ(s.file, internal::kHsLibrary);
    EXPECT_TRUE(libhs_mapped());
  } else {  // a file that is not there: every pattern on its own
    EXPECT_FALSE(s.loaded);
    EXPECT_EQ(s.file, replacement());
    EXPECT_NE(s.message.find(replacement()), std::string::npos) << s.message;
    EXPECT_EQ(s.message.find('\n'), std::string::npos);
    EXPECT_FALSE(libhs_mapped());
  }
  expect_exact(prog);
}

TEST(HsLoader, RegexesAloneNeverLoadIt) {
  ASSERT_FALSE(hyperscan_status().tried);
  const ir::Program prog = program({PayloadOp::Regex, PayloadOp::RegexCs});
  expect_exact(prog);
  EXPECT_FALSE(hyperscan_status().tried);
  EXPECT_FALSE(libhs_mapped());
}

TEST(HsLoader, ALibraryWithoutHyperscanIsRefusedByName) {
  std::string message;
  EXPECT_EQ(internal::load_hyperscan("libz.so.1", message), nullptr);
  EXPECT_EQ(message, "libz.so.1: not Hyperscan (no hs_compile_multi)");
  EXPECT_EQ(internal::load_hyperscan("/nonexistent/libhs.so.5", message), nullptr);
  EXPECT_NE(message.find("/nonexistent/libhs.so.5"), std::string::npos) << message;
}

}  // namespace
}  // namespace pfc::testing
