// tests/compiler/hs_image_test.cc — the string maps' Hyperscan databases serialised for the
// namespace's program cache (compiler/hs_image.h, docs/namespace.md "Compiled programs"):
// a matcher lowered without its databases tests their patterns one by one, then installs
// them from the compile service's file without compiling; a missing, truncated or
// corrupted file, an entry of another key (Hyperscan version, platform, patterns), kept
// indices of another database and bytes Hyperscan refuses each make the process compile
// the database itself, counted with the reason. Every matcher gives the masks of each
// pattern tested on its own.
#include <cstring>
#include <string>
#include <vector>

#include "compiler/hs_image.h"
#include "compiler/hs_loader.h"
#include "compiler/ir_wire.h"
#include "compiler/lower.h"
#include "compiler/str_match.h"
#include "test_util.h"

namespace pfc::testing {
namespace {

using internal::HsDbCounts;

ir::Program lowered(bool defer) {
  LowerOptions o;
  o.defer_string_databases = defer;
  auto prog = lower(hs_spec(24, false), o);
  EXPECT_TRUE(prog.has_value());
  return prog ? std::move(*prog) : ir::Program{};
}

ProgramKey key_of(const ir::Program& prog) { return program_key(ir::encode_program(prog)); }

// The matcher's masks are what testing each pattern on its own gives.
void expect_exact(const ir::Program& prog) {
  ASSERT_EQ(prog.str_maps.size(), 1u);
  expect_str_maps_exact(prog, {u"Stra\u00DFe and w1_3 w4_8", u"\u00C9LAN \u212Aelvin user5",
                               u"W2_5 \u00E9lan", u"Xser", u"\u03A3\u03C3", u"nothing", u""});
}

class HsImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(internal::hyperscan(), nullptr) << internal::hyperscan_status().message;
    service_ = lowered(false);
    file_ = internal::serialize_str_databases(service_, key_of(service_));
    ASSERT_FALSE(file_.empty());
  }
  // A deferred program (the provider's), checked one by one before the install and after.
  HsDbCounts install(const HsImage* image, const std::string& missing = "") {
    ir::Program prog = lowered(true);
    expect_exact(prog);
    const HsDbCounts n = internal::install_str_databases(prog, image, missing);
    expect_exact(prog);
    EXPECT_EQ(internal::install_str_databases(prog, image, missing).compiled, 0u) << "twice";
    return n;
  }
  // The file with its entries changed by `edit`, rewritten with a valid hash.
  std::string edited(void (*edit)(HsImageEntry&, std::string&)) {
    auto image = parse_hs_image(file_, key_of(service_).hex());
    EXPECT_TRUE(image.has_value());
    std::vector<std::string> bytes;
    for (HsImageEntry& e : image->entries) bytes.emplace_back(e.bytes);
    for (size_t i = 0; i < bytes.size(); ++i) {
      edit(image->entries[i], bytes[i]);
      image->entries[i].bytes = bytes[i];
    }
    return write_hs_image(image->program, image->entries);
  }

  ir::Program service_;
  std::string file_;
};

TEST_F(HsImageTest, TheServicesDatabasesAreLoadedNotCompiled) {
  auto image = parse_hs_image(file_, key_of(service_).hex());
  ASSERT_TRUE(image) << image.error().message;
  ASSERT_EQ(image->entries.size(), 2u);  // caseless and `.cs`
  const HsDbCounts n = install(&*image);
  EXPECT_EQ(n.loaded, 2u);
  EXPECT_EQ(n.compiled, 0u);
  EXPECT_EQ(n.refused, 0u) << n.why;
  expect_exact(service_);
}

TEST_F(HsImageTest, NoFileMeansCompilingCountedWithTheReason) {
  const HsDbCounts n = install(nullptr, "trace file 'x/prog-K.hsdb': not found");
  EXPECT_EQ(n.loaded, 0u);
  EXPECT_EQ(n.compiled, 2u);
  EXPECT_EQ(n.refused, 2u);
  EXPECT_NE(n.why.find("prog-K.hsdb': not found"), std::string::npos) << n.why;
}

TEST_F(HsImageTest, DamagedFilesAreRefusedByTheirCheck) {
  const std::string key = key_of(service_).hex();
  std::string flipped = file_;
  flipped[flipped.size() / 2] ^= 0x20;
  for (const std::string& bad : {file_.substr(0, file_.size() / 2), flipped, std::string("PFC")}) {
    auto image = parse_hs_image(bad, key);
    ASSERT_FALSE(image);
    EXPECT_EQ(image.error().message.rfind("string database file, byte ", 0), 0u)
        << image.error().message;
    EXPECT_EQ(image.error().message.find('\n'), std::string::npos);
  }
  auto other = parse_hs_image(file_, std::string(32, '0'));
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("holds the databases of program " + key), std::string::npos)
      << other.error().message;
}

TEST_F(HsImageTest, EntriesOfAnotherKeyOrDatabaseAreCompiledInstead) {
  struct Case {
    const char* name;
    void (*edit)(HsImageEntry&, std::string&);
    const char* why;
  };
  const Case cases[] = {
      {"another key", [](HsImageEntry& e, std::string&) { e.key[3] ^= 1; }, "another Hyperscan"},
      {"kept out of range", [](HsImageEntry& e, std::string&) { e.kept.back() = 1u << 20; },
       "kept expressions"},
      {"bytes Hyperscan refuses", [](HsImageEntry&, std::string& b) { b[b.size() / 2] ^= 0x55; },
       "Hyperscan refused"},
      {"truncated database", [](HsImageEntry&, std::string& b) { b.resize(b.size() / 3); },
       "Hyperscan refused"},
      {"another map", [](HsImageEntry& e, std::string&) { e.map = 7; }, "no entry"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string bytes = edited(c.edit);
    auto image = parse_hs_image(bytes, key_of(service_).hex());
    ASSERT_TRUE(image) << image.error().message;
    const HsDbCounts n = install(&*image);
    EXPECT_EQ(n.loaded, 0u);
    EXPECT_EQ(n.compiled, 2u);
    EXPECT_EQ(n.refused, 2u);
    EXPECT_NE(n.why.find(c.why), std::string::npos) << n.why;
  }
}

// Returns a Hyperscan version no library has.
const char* other_version() { return "0.0.1 1970-01-01"; }
hs_error_t other_platform(hs_platform_info_t* p) {
  *p = {};
  p->cpu_features = 1ull << 40;
  return HS_SUCCESS;
}

TEST_F(HsImageTest, TheKeyCoversVersionPlatformExpressionsAndFlags) {
  const internal::HsApi& hs = *internal::hyperscan();
  const std::vector<std::string> exprs{"a", "b"};
  const HsDbKey k = hs_database_key(hs, exprs, {0, 0});
  EXPECT_EQ(hs_database_key(hs, exprs, {0, 0}), k);
  EXPECT_NE(hs_database_key(hs, exprs, {0, 1}), k);
  EXPECT_NE(hs_database_key(hs, {"a", "c"}, {0, 0}), k);
  EXPECT_NE(hs_database_key(hs, {"ab"}, {0}), hs_database_key(hs, {"a", "b"}, {0, 0}));
  internal::HsApi version = hs;
  version.version = &other_version;
  EXPECT_NE(hs_database_key(version, exprs, {0, 0}), k);
  internal::HsApi platform = hs;
  platform.populate_platform = &other_platform;
  EXPECT_NE(hs_database_key(platform, exprs, {0, 0}), k);
}

}  // namespace
}  // namespace pfc::testing
