// compiler/hs_image.cc — see hs_image.h.
#include "compiler/hs_image.h"

#include <cstring>

#include "base/le.h"
#include "base/wire_reader.h"

namespace pfc {
namespace {

constexpr std::string_view kMagic = "PFCHSDB\n";
constexpr uint32_t kFormat = 1;
constexpr size_t kHashAt = kMagic.size() + 4;
// An entry without kept indices or database bytes: map, rule, key, two counts.
constexpr size_t kMinEntry = 4 + 1 + 16 + 4 + 8;

void append_bytes(std::vector<uint8_t>& out, std::string_view bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

std::string_view as_text(const std::vector<uint8_t>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

HsImageEntry read_entry(WireReader& r) {
  HsImageEntry e;
  e.map = r.u32("a string map index");
  const size_t rule_at = r.pos();
  e.rule = r.u8("a case rule");
  if (e.rule > 1) r.fail_at(rule_at, "a case rule (0 or 1)");
  const std::string_view key = r.bytes(16, "a database key");
  if (r.ok()) std::memcpy(e.key.data(), key.data(), 16);
  e.kept.resize(r.count("a kept expression count", 4));
  for (uint32_t& k : e.kept) {
    const size_t at = r.pos();
    k = r.u32("a kept expression index");
    if (&k != e.kept.data() && k <= (&k)[-1]) r.fail_at(at, "kept indices in increasing order");
  }
  const size_t size_at = r.pos();
  const uint64_t size = r.u64("the database size");
  if (r.ok() && size > r.remaining()) r.fail_at(size_at, "a database size that fits the file");
  e.bytes = r.bytes(static_cast<size_t>(size), "the serialised database");
  return e;
}

}  // namespace

HsDbKey hs_database_key(const internal::HsApi& hs, const std::vector<std::string>& exprs,
                        const std::vector<unsigned>& flags) {
  std::vector<uint8_t> in;
  const std::string_view version = hs.version();
  append_le(in, static_cast<uint32_t>(version.size()));
  append_bytes(in, version);
  hs_platform_info_t platform{};
  if (hs.populate_platform(&platform) != HS_SUCCESS) platform = {};
  append_le(in, static_cast<uint32_t>(platform.tune));
  append_le(in, static_cast<uint64_t>(platform.cpu_features));
  append_le(in, static_cast<uint64_t>(platform.reserved1));
  append_le(in, static_cast<uint64_t>(platform.reserved2));
  append_le(in, static_cast<uint32_t>(exprs.size()));
  for (size_t i = 0; i < exprs.size(); ++i) {
    append_le(in, static_cast<uint32_t>(exprs[i].size()));
    append_bytes(in, exprs[i]);
    append_le(in, static_cast<uint32_t>(flags[i]));
  }
  return xxh128(as_text(in));
}

const HsImageEntry* HsImage::find(uint32_t map, uint8_t rule) const {
  for (const HsImageEntry& e : entries)
    if (e.map == map && e.rule == rule) return &e;
  return nullptr;
}

std::string write_hs_image(const ProgramKey& program, const std::vector<HsImageEntry>& entries) {
  std::vector<uint8_t> body(program.bytes.begin(), program.bytes.end());
  append_le(body, static_cast<uint32_t>(entries.size()));
  for (const HsImageEntry& e : entries) {
    append_le(body, e.map);
    append_le(body, e.rule);
    body.insert(body.end(), e.key.begin(), e.key.end());
    append_le(body, static_cast<uint32_t>(e.kept.size()));
    for (uint32_t k : e.kept) append_le(body, k);
    append_le(body, static_cast<uint64_t>(e.bytes.size()));
    append_bytes(body, e.bytes);
  }
  std::vector<uint8_t> out(kMagic.begin(), kMagic.end());
  append_le(out, kFormat);
  const std::array<uint8_t, 16> hash = xxh128(as_text(body));
  out.insert(out.end(), hash.begin(), hash.end());
  out.insert(out.end(), body.begin(), body.end());
  return std::string(as_text(out));
}

Result<HsImage> parse_hs_image(std::string_view bytes, std::string_view key_hex) {
  WireReader r(bytes);
  HsImage image;
  if (r.bytes(kMagic.size(), "the file magic") != kMagic) r.fail_at(0, "the file magic");
  if (r.ok() && r.u32("the format") != kFormat)
    r.fail_at(kMagic.size(), "string database format " + std::to_string(kFormat));
  const std::string_view hash = r.bytes(16, "the hash");
  if (r.ok() && std::memcmp(hash.data(), xxh128(r.rest()).data(), 16) != 0)
    r.fail_at(kHashAt, "the XXH3-128 of the bytes after it");
  const std::string_view key = r.bytes(16, "the program key");
  if (r.ok()) std::memcpy(image.program.bytes.data(), key.data(), 16);
  image.entries.resize(r.count("an entry count", kMinEntry));
  for (HsImageEntry& e : image.entries) e = read_entry(r);
  r.expect_end("the end of the file");
  if (!r.ok()) return make_error("string database file, " + r.error());
  if (image.program.hex() != key_hex)
    return make_error("string database file: it holds the databases of program " +
                      image.program.hex());
  return image;
}

}  // namespace pfc
