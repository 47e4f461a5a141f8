// cli/gen_values.cc — random field values for `pfc gen`, per TDH in-type, honouring
// fixed/field-given counts and lengths and mixing in the filters' constants.
#include "cli/gen_values.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "base/ascii.h"
#include "base/utf8.h"

namespace pfc::cli {

Rng::Rng(uint64_t seed) {
  for (uint64_t& s : s_) {  // splitmix64
    seed += 0x9E3779B97F4A7C15ull;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    s = z ^ (z >> 31);
  }
}

uint64_t Rng::next() {
  auto rotl = [](uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

namespace {

// Size limits of one field occurrence: `exact` strings/binaries have exactly `units`
// (a shared length source), otherwise at most `units` when `bounded`.
struct SizeRule {
  bool bounded = false;
  bool exact = false;
  uint64_t units = 0;
};

constexpr char32_t kExotic[] = {0xE9, 0xDF, 0x3A3, 0x3C2, 0x212A, 0x17F, 0x4E2D, 0x1F600};
constexpr char kPlain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.";

char32_t random_char(Rng& rng, bool bmp_only, bool ascii_only) {
  if (!ascii_only && rng.chance(5)) {
    const char32_t c = kExotic[rng.below(std::size(kExotic))];
    if (!(bmp_only && c > 0xFFFF)) return c;
  }
  return char32_t(kPlain[rng.below(sizeof kPlain - 1)]);
}

// The code points of a filter constant (UTF-8; a string-field needle may hold invalid
// bytes, which decode to U+DC00 + byte and are dropped like NULs).
std::u32string decode_hint(const std::string& s) {
  std::u32string out = utf8_to_utf32(s);
  std::erase_if(out, [](char32_t c) { return c == 0 || is_surrogate(c); });
  return out;
}

std::u32string random_run(Rng& rng, uint64_t max_len, bool bmp_only, bool ascii_only) {
  std::u32string out;
  const uint64_t n = rng.below(max_len + 1);
  for (uint64_t i = 0; i < n; ++i) out += random_char(rng, bmp_only, ascii_only);
  return out;
}

// A string value: a filter constant (as is or embedded, with random ASCII case) or random
// text, cut/padded to the size rule. `wide`: sizes count UTF-16 units, else UTF-8 bytes.
std::string random_text(const FieldHints& h, const SizeRule& rule, bool wide, Rng& rng) {
  const bool ascii_only = !wide && rule.exact;
  const bool bmp_only = wide && rule.exact;
  std::u32string cps;
  if (!h.texts.empty() && rng.chance(50)) {
    cps = decode_hint(h.texts[rng.below(h.texts.size())]);
    if (rng.chance(50))
      cps =
          random_run(rng, 8, bmp_only, ascii_only) + cps + random_run(rng, 8, bmp_only, ascii_only);
    for (char32_t& c : cps)
      if (is_ascii_alpha(c) && rng.chance(30)) c ^= 0x20;
  } else {
    cps = random_run(rng, 24, bmp_only, ascii_only);
  }
  std::string out;
  uint64_t units = 0;
  for (char32_t c : cps) {
    std::string one;
    append_utf8(one, c);
    const uint64_t size = wide ? (c > 0xFFFF ? 2 : 1) : one.size();
    if (rule.bounded && units + size > rule.units) break;
    if (ascii_only && c >= 0x80) continue;
    if (bmp_only && c > 0xFFFF) continue;
    out += one;
    units += size;
  }
  while (rule.exact && units < rule.units) {
    out += char(kPlain[rng.below(52)]);
    ++units;
  }
  return out;
}

// A random integer for a `size`-byte type, or a filter constant that fits it.
FieldValue random_int(const FieldHints& h, uint32_t size, bool is_signed, Rng& rng) {
  const uint64_t mask = size >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * size)) - 1;
  if (!h.ints.empty() && rng.chance(60)) {
    const uint64_t bits = h.ints[rng.below(h.ints.size())];
    if (!is_signed && (bits & ~mask) == 0) return FieldValue::of_uint(bits);
    const auto v = int64_t(bits);
    const int64_t lo = size >= 8 ? INT64_MIN : -(int64_t{1} << (8 * size - 1));
    if (is_signed && v >= lo && v <= -(lo + 1))
      return v < 0 ? FieldValue::of_int(v) : FieldValue::of_uint(bits);
  }
  uint64_t bits = (rng.next() >> rng.below(64)) & mask;
  if (!is_signed) return FieldValue::of_uint(bits);
  bits &= mask >> 1;  // magnitude below 2^(8·size−1)
  if (rng.chance(30)) return FieldValue::of_int(-int64_t(bits) - 1);
  return FieldValue::of_uint(bits);
}

std::vector<uint8_t> random_bytes(Rng& rng, uint64_t n) {
  std::vector<uint8_t> out(n);
  for (uint8_t& b : out) b = uint8_t(rng.next());
  return out;
}

FieldValue random_element(InType type, const FieldHints& h, const SizeRule& rule, Rng& rng) {
  switch (type) {
    case InType::UnicodeString:
    case InType::AnsiString:
      return FieldValue::of_string(random_text(h, rule, type == InType::UnicodeString, rng));
    case InType::Boolean: return FieldValue::of_bool(rng.chance(50));
    case InType::Float:
    case InType::Double:
      return FieldValue::of_double(double(int64_t(rng.below(2000001)) - 1000000) / 16.0);
    case InType::Guid: {
      if (!h.guids.empty() && rng.chance(50))
        return FieldValue::of_guid(h.guids[rng.below(h.guids.size())]);
      const std::vector<uint8_t> b = random_bytes(rng, 16);
      return FieldValue::of_guid(Guid::from_bytes(b.data()));
    }
    case InType::SystemTime: return FieldValue::of_bytes(random_bytes(rng, 16));
    case InType::Sid: {
      const uint8_t n = uint8_t(rng.below(5));
      std::vector<uint8_t> b = {1, n, 0, 0, 0, 0, 0, 5};
      const std::vector<uint8_t> sub = random_bytes(rng, 4u * n);
      b.insert(b.end(), sub.begin(), sub.end());
      return FieldValue::of_bytes(std::move(b));
    }
    case InType::Binary: {
      const uint64_t n = rule.exact ? rule.units : rng.below((rule.bounded ? rule.units : 8) + 1);
      return FieldValue::of_bytes(random_bytes(rng, n));
    }
    default: return random_int(h, in_type_fixed_size(type), in_type_is_signed(type), rng);
  }
}

// Generated values stay within the payload limit (docs/limits.md): an array of more than
// kMaxGeneratedElements is left to the encoder's default elements, and a value that could
// take the generated bytes past kMaxPayloadBytes is not drawn (null: the default).
constexpr uint64_t kMaxGeneratedElements = 4096;

// An upper bound on the payload bytes of a random value drawn with hints `h`: random text
// is at most 24 code points, a hint at most 16 more, each at most 4 bytes (2 UTF-16 units).
uint64_t max_random_bytes(const FieldHints& h, const SizeRule& rule) {
  uint64_t longest = 0;
  for (const std::string& t : h.texts) longest = std::max<uint64_t>(longest, t.size());
  const uint64_t sized = rule.bounded ? 2 * rule.units : 16;
  return std::max<uint64_t>(2 * longest + 64, sized) + 16;
}

// Draws one value unless it could exceed `budget` (then null); charges what was drawn.
FieldValue bounded_element(InType type, const FieldHints& h, const SizeRule& rule, Rng& rng,
                           uint64_t& budget) {
  if (max_random_bytes(h, rule) > budget) return FieldValue::null();
  FieldValue v = random_element(type, h, rule, rng);
  budget -= std::min(budget, 2 * v.string_value.size() + v.bytes.size() + 16);
  return v;
}

}  // namespace

std::vector<std::pair<std::string, FieldValue>> random_fields(const EventDef& event,
                                                              const std::vector<FieldHints>& hints,
                                                              Rng& rng) {
  std::set<uint32_t> sources;
  for (const FieldDef& f : event.fields) {
    if (f.count.kind == Extent::Kind::Field) sources.insert(f.count.value);
    if (f.length.kind == Extent::Kind::Field) sources.insert(f.length.value);
  }
  std::map<uint32_t, uint64_t> shared;  // source field → the size every user gets
  auto shared_size = [&](uint32_t source, uint64_t max) {
    auto [it, added] = shared.try_emplace(source, 0);
    if (added) it->second = rng.below(max + 1);
    return it->second;
  };
  uint64_t budget = kMaxPayloadBytes;
  std::vector<std::pair<std::string, FieldValue>> out;
  for (uint32_t i = 0; i < event.fields.size(); ++i) {
    if (sources.count(i)) continue;
    const FieldDef& f = event.fields[i];
    SizeRule rule;
    if (f.length.kind == Extent::Kind::Fixed) rule = {true, false, f.length.value};
    if (f.length.kind == Extent::Kind::Field) rule = {true, true, shared_size(f.length.value, 16)};
    const FieldHints& h = hints.at(i);
    if (!f.count.present()) {
      out.emplace_back(f.name, bounded_element(f.type, h, rule, rng, budget));
      continue;
    }
    const uint64_t n =
        f.count.kind == Extent::Kind::Fixed ? f.count.value : shared_size(f.count.value, 4);
    if (n > kMaxGeneratedElements) {
      out.emplace_back(f.name, FieldValue::null());
      continue;
    }
    std::vector<FieldValue> items;
    items.reserve(n);
    for (uint64_t k = 0; k < n; ++k) items.push_back(bounded_element(f.type, h, rule, rng, budget));
    out.emplace_back(f.name, FieldValue::of_array(std::move(items)));
  }
  return out;
}

}  // namespace pfc::cli
