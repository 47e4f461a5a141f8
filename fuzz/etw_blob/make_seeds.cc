// fuzz/etw_blob/make_seeds.cc — writes the etw_blob fuzzer's seed corpus
// (fuzz/corpus/etw_blob/): blobs built with etw::encode_blob from hand-made BlobContents over
// blob_schema.h. Valid blobs cover every operator on every in-type it applies to (extreme
// values included), strings and GUIDs, the four match-any/group-all combinations, several
// events and versions, 8 predicates in a filter and blobs near the 4096-byte limit; further
// seeds decode but fail resolution in one way each, or are valid blobs with one structural
// field broken (re-checksummed) so each of decode_blob's checks has an input next to it.
// Usage: etw_blob_seeds OUT_DIR   (deterministic; overwrites OUT_DIR/*.blob)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "etw/payload_blob.h"
#include "etw_blob/blob_schema.h"

namespace {

using namespace pfc;
using etw::BlobContents;
using etw::BlobFilter;
using etw::BlobPredicate;
using fuzz::type_field;

BlobPredicate ip(InType t, PayloadOp op, uint64_t lo, uint64_t hi = 0) {
  BlobPredicate p{type_field(t), op, t, {}};
  p.value.lo = lo;
  p.value.hi = hi;
  return p;
}

BlobPredicate sp(InType t, PayloadOp op, std::string text, uint16_t field = 0xFFFF) {
  BlobPredicate p{field == 0xFFFF ? type_field(t) : field, op, t, {}};
  p.value.text = std::move(text);
  return p;
}

BlobPredicate gp(PayloadOp op, std::string_view guid) {
  BlobPredicate p{type_field(InType::Guid), op, InType::Guid, {}};
  p.value.guid = *Guid::parse(guid);
  return p;
}

BlobFilter filt(std::vector<BlobPredicate> preds, bool any = false, bool all = false,
                uint16_t id = 1, uint8_t version = 0) {
  return BlobFilter{id, version, any, all, std::move(preds)};
}

BlobContents blob(std::vector<BlobFilter> filters) {
  return BlobContents{fuzz::blob_schema().guid, std::move(filters)};
}

// What the seed is meant to do; main() checks it.
enum class Expect { Resolves, DecodesOnly, Rejected };

struct Seed {
  std::string name;
  std::vector<uint8_t> bytes;
  Expect expect = Expect::Resolves;
};

// Smallest and largest value of an integer-like type, as sign-extended bits.
void type_range(InType t, uint64_t& min, uint64_t& max) {
  const uint32_t bits = t == InType::Boolean ? 1 : in_type_fixed_size(t) * 8;
  if (in_type_is_signed(t)) {
    max = bits == 64 ? INT64_MAX : (uint64_t{1} << (bits - 1)) - 1;
    min = ~max;
  } else {
    min = 0;
    max = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
  }
}

// Every integer operator on type t: eight AND-ed predicates, then MODULO and EQ OR-ed.
BlobContents int_ops(InType t) {
  uint64_t min = 0, max = 0;
  type_range(t, min, max);
  const uint64_t mid = t == InType::Boolean ? 1 : 7;
  using enum PayloadOp;
  return blob({filt({ip(t, Eq, min), ip(t, Ne, max), ip(t, Le, mid), ip(t, Gt, min),
                     ip(t, Lt, max), ip(t, Ge, 0), ip(t, Between, min, max),
                     ip(t, NotBetween, 0, mid)}),
               filt({ip(t, Modulo, max), ip(t, Eq, 0)}, true, true)});
}

std::vector<Seed> valid_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto add = [&out](std::string name, const BlobContents& c) {
    out.push_back({std::move(name), etw::encode_blob(c)});
  };
  for (InType t : {InType::Int8, InType::UInt8, InType::Int16, InType::UInt16, InType::Int32,
                   InType::UInt32, InType::Int64, InType::UInt64, InType::Boolean,
                   InType::Pointer, InType::FileTime, InType::HexInt32, InType::HexInt64})
    add("int_" + std::string(in_type_name(t)), int_ops(t));
  for (InType t : {InType::UnicodeString, InType::AnsiString})
    add("str_" + std::string(in_type_name(t)),
        blob({filt({sp(t, Contains, "abc"), sp(t, DoesntContain, "h\xC3\xA9llo \xCE\xA3"),
                    sp(t, Is, ""), sp(t, IsNot, "\xF0\x9F\x98\x80 K\xE2\x84\xAA")})}));
  add("str_ansi_not_utf8", blob({filt({sp(InType::AnsiString, Is, "\xFF\xFE\x80")})}));
  add("str_fixed_length", blob({filt({sp(InType::UnicodeString, Contains, "12345678",
                                         fuzz::kFixedStringField)})}));
  add("guid_is_isnot", blob({filt({gp(Is, "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}"),
                                   gp(IsNot, "{00000000-0000-0000-0000-000000000000}")},
                                  true)}));
  for (int flags = 0; flags < 4; ++flags)
    add("flags_any" + std::to_string(flags & 1) + "_all" + std::to_string(flags >> 1),
        blob({filt({ip(InType::UInt32, Gt, 10), sp(InType::UnicodeString, Contains, "x")},
                   (flags & 1) != 0, (flags & 2) != 0)}));
  BlobPredicate title = sp(InType::AnsiString, Contains, "err", 0);
  BlobPredicate level = ip(InType::UInt32, Le, 4);
  level.field = 1;
  BlobPredicate code = ip(InType::Int16, Between, static_cast<uint64_t>(-100), 100);
  code.field = 2;
  BlobPredicate inst = gp(IsNot, "{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
  inst.field = 1;
  add("events_and_versions",
      blob({filt({ip(InType::UInt8, Eq, 3)}), filt({level}, false, true, 1, 1),
            filt({title, inst, code}, true, false, 2, 1), filt({ip(InType::Int64, Lt, 0)}, true)}));
  add("max_preds_8",
      blob({filt({ip(InType::Int8, Ge, static_cast<uint64_t>(-1)), ip(InType::UInt64, Modulo, 2),
                  sp(InType::UnicodeString, Is, "a"), sp(InType::AnsiString, IsNot, "b"),
                  gp(Is, "{11111111-2222-3333-4444-555555555555}"), ip(InType::Boolean, Eq, 1),
                  ip(InType::HexInt32, NotBetween, 16, 255), ip(InType::Pointer, Ne, 0)},
                 true)}));
  std::vector<BlobFilter> many;  // 48 + 126 · (8 + 24) = 4080 bytes
  for (uint16_t i = 0; i < 126; ++i)
    many.push_back(filt({ip(InType::UInt16, Eq, i)}, i % 2 == 1, i % 3 == 0));
  add("max_filters_126", blob(many));
  std::vector<BlobPredicate> texts;  // 48 + 8 + 8 · 24 = 248 bytes of tables, 3848 of text
  for (int i = 0; i < 8; ++i)
    texts.push_back(sp(i % 2 ? InType::AnsiString : InType::UnicodeString, Contains,
                       std::string(481, static_cast<char>('a' + i))));
  add("max_size_4096", blob({filt(texts)}));
  return out;
}

// Decodes, but resolve_blob rejects it (one reason per seed).
std::vector<Seed> unresolvable_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto add = [&out](std::string name, BlobContents c) {
    out.push_back({"resolve_" + std::move(name), etw::encode_blob(c), Expect::DecodesOnly});
  };
  BlobContents wrong = blob({filt({ip(InType::UInt32, Eq, 1)})});
  wrong.provider = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  add("wrong_provider", wrong);
  add("unknown_event", blob({filt({ip(InType::UInt32, Eq, 1)}, false, false, 3)}));
  add("unknown_version", blob({filt({ip(InType::UInt32, Eq, 1)}, false, false, 2, 0)}));
  BlobPredicate far = ip(InType::UInt32, Eq, 1);
  far.field = 23;
  add("field_out_of_range", blob({filt({far})}));
  BlobPredicate other = ip(InType::UInt32, Eq, 1);
  other.field = type_field(InType::Int32);
  add("type_mismatch", blob({filt({other})}));
  BlobPredicate array = ip(InType::UInt32, Eq, 1);
  array.field = fuzz::kArrayField;
  add("array_field", blob({filt({array})}));
  for (InType t : {InType::Float, InType::Double, InType::Binary, InType::SystemTime, InType::Sid})
    add("op_on_" + std::string(in_type_name(t)), blob({filt({ip(t, Eq, 0)})}));
  add("int_op_on_string", blob({filt({sp(InType::UnicodeString, Eq, "1")})}));
  add("string_op_on_int", blob({filt({ip(InType::UInt32, Contains, 1)})}));
  add("int8_out_of_range", blob({filt({ip(InType::Int8, Eq, 200)})}));
  add("uint8_negative", blob({filt({ip(InType::UInt8, Eq, static_cast<uint64_t>(-1))})}));
  add("bool_2", blob({filt({ip(InType::Boolean, Eq, 2)})}));
  add("modulo_0", blob({filt({ip(InType::UInt32, Modulo, 0)})}));
  add("between_reversed", blob({filt({ip(InType::Int32, Between, 5, static_cast<uint64_t>(-5))})}));
  add("string_nul", blob({filt({sp(InType::AnsiString, Is, std::string("a\0b", 3))})}));
  add("wstring_not_utf8", blob({filt({sp(InType::UnicodeString, Is, "\xC0\xAF")})}));
  add("second_filter_bad", blob({filt({ip(InType::UInt32, Eq, 1)}), filt({ip(InType::Int8, Eq, 128)})}));
  return out;
}

template <typename T>
void patch(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

void rechecksum(std::vector<uint8_t>& b) {
  patch<uint32_t>(b, etw::kBlobChecksumOffset, etw::blob_checksum(b.data(), b.size()));
}

// Offsets in base(): filters @48 and @56, predicates @64, @88 (the string), @112, text @136.
BlobContents base() {
  using enum PayloadOp;
  return blob({filt({ip(InType::UInt32, Eq, 1), sp(InType::UnicodeString, Contains, "abc")}),
               filt({ip(InType::Int16, Between, static_cast<uint64_t>(-1), 1)}, true)});
}

// A valid blob with one field changed, checksum recomputed (unless the checksum is the
// point): decode_blob rejects each, except the "odd_" ones, which decode to contents whose
// canonical encoding differs from the input.
std::vector<Seed> structural_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto edit = [&out](std::string name, const BlobContents& c,
                     const std::function<void(std::vector<uint8_t>&)>& change) {
    std::vector<uint8_t> b = etw::encode_blob(c);
    change(b);
    if (name != "checksum") rechecksum(b);
    const bool odd = name.starts_with("odd_");
    out.push_back({odd ? name : "broken_" + name, std::move(b),
                   odd ? Expect::Resolves : Expect::Rejected});
  };
  auto none = [](std::vector<uint8_t>&) {};
  edit("zero_filters", blob({}), none);
  edit("empty_filter", blob({filt({})}), none);
  edit("9_preds", blob({filt(std::vector<BlobPredicate>(9, ip(InType::UInt8, Eq, 1)))}), none);
  edit("magic", base(), [](auto& b) { b[0] ^= 1; });
  edit("version", base(), [](auto& b) { patch<uint16_t>(b, 4, 2); });
  edit("header_size", base(), [](auto& b) { patch<uint16_t>(b, 6, 40); });
  edit("total_size", base(), [](auto& b) { patch<uint32_t>(b, 8, 140); });
  edit("checksum", base(), [](auto& b) { b[12] ^= 1; });
  edit("strings_offset", base(), [](auto& b) { patch<uint32_t>(b, 36, 135); });
  edit("strings_size", base(), [](auto& b) { patch<uint32_t>(b, 40, 2); });
  edit("header_reserved", base(), [](auto& b) { patch<uint32_t>(b, 44, 1); });
  edit("filter_flags", base(), [](auto& b) { b[48 + 3] = 4; });
  edit("filter_first", base(), [](auto& b) { patch<uint16_t>(b, 56 + 4, 1); });
  edit("filter_count_9", base(), [](auto& b) { patch<uint16_t>(b, 48 + 6, 9); });
  edit("pred_total", base(), [](auto& b) {  // drop filter 2's entry: 3 predicates, 2 used
    b.erase(b.begin() + 56, b.begin() + 64);
    patch<uint16_t>(b, 32, 1);
    patch<uint32_t>(b, 8, static_cast<uint32_t>(b.size()));
    patch<uint32_t>(b, 36, 128);
  });
  edit("pred_reserved", base(), [](auto& b) { patch<uint16_t>(b, 64 + 6, 1); });
  edit("unknown_op", base(), [](auto& b) { patch<uint16_t>(b, 64 + 2, 9); });
  edit("unknown_type_0", base(), [](auto& b) { patch<uint16_t>(b, 64 + 4, 0); });
  edit("unknown_type_22", base(), [](auto& b) { patch<uint16_t>(b, 112 + 4, 22); });
  edit("single_value_hi", base(), [](auto& b) { patch<uint64_t>(b, 64 + 16, 1); });
  edit("string_past_table", base(), [](auto& b) { patch<uint64_t>(b, 88 + 8, 1); });
  edit("string_offset_huge", base(), [](auto& b) { patch<uint64_t>(b, 88 + 8, UINT64_MAX); });
  edit("string_length_huge", base(), [](auto& b) { patch<uint64_t>(b, 88 + 16, UINT64_MAX - 1); });
  const BlobContents twice = blob({filt({sp(InType::UnicodeString, Contains, "abc"),
                                         sp(InType::AnsiString, Is, "abc")})});
  // Tables end at 48 + 8 + 48 = 104; the second predicate's a/b words are @88 and @96.
  edit("odd_shared_text", twice, [](auto& b) { patch<uint64_t>(b, 88, 0); });
  edit("odd_unreferenced_text", twice, [](auto& b) { patch<uint64_t>(b, 96, 1); });
  return out;
}

Expect outcome(const std::vector<uint8_t>& b) {
  const auto decoded = etw::decode_blob(b.data(), b.size());
  if (!decoded) return Expect::Rejected;
  return etw::resolve_blob(*decoded, &fuzz::blob_schema()) ? Expect::Resolves : Expect::DecodesOnly;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  std::vector<Seed> seeds = valid_seeds();
  for (auto* more : {&unresolvable_seeds, &structural_seeds}) {
    std::vector<Seed> s = more();
    seeds.insert(seeds.end(), s.begin(), s.end());
  }
  size_t total = 0;
  for (const Seed& s : seeds) {
    if (outcome(s.bytes) != s.expect) {
      std::fprintf(stderr, "%s: does not do what it is meant to\n", s.name.c_str());
      return 1;
    }
    const std::string path = std::string(argv[1]) + "/" + s.name + ".blob";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(s.bytes.data(), 1, s.bytes.size(), f) != s.bytes.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "%s: cannot write\n", path.c_str());
      return 1;
    }
    total += s.bytes.size();
  }
  std::printf("%zu seeds, %zu bytes\n", seeds.size(), total);
  return 0;
}
