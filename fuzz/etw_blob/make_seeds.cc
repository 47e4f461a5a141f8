// fuzz/etw_blob/make_seeds.cc — writes the etw_blob fuzzer's seed corpus
// (fuzz/corpus/etw_blob/): blobs built with etw::encode_blob from hand-made BlobContents over
// blob_schema.h, every filter carrying its layout (format version 2). Valid blobs cover
// every operator on every in-type it applies to (extreme values included), strings and
// GUIDs, the four match-any/group-all combinations, several events and versions, events the
// schema lacks (resolved by their layouts alone, extents included), 8 predicates in a filter
// and blobs of exactly 4096 bytes; "schema_" seeds resolve by their layouts but not against
// the schema; "resolve_" seeds decode but resolve neither way; "broken_" seeds break one
// decoder check each (broken_seeds.cc). main() checks that every seed does what it is meant
// to before writing it.
// Usage: etw_blob_seeds OUT_DIR   (deterministic; writes OUT_DIR/*.blob)
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "etw_blob/blob_schema.h"
#include "etw_blob/seed_build.h"

namespace pfc::fuzz::seeds {

BlobPredicate ip(InType t, PayloadOp op, uint64_t lo, uint64_t hi) {
  BlobPredicate p{type_field(t), op, t, {}};
  p.value.lo = lo;
  p.value.hi = hi;
  return p;
}

BlobPredicate sp(InType t, PayloadOp op, std::string text, uint16_t field) {
  BlobPredicate p{field == 0xFFFF ? type_field(t) : field, op, t, {}};
  p.value.text = std::move(text);
  return p;
}

BlobPredicate gp(PayloadOp op, std::string_view guid) {
  BlobPredicate p{type_field(InType::Guid), op, InType::Guid, {}};
  p.value.guid = *Guid::parse(guid);
  return p;
}

BlobPredicate at(BlobPredicate p, uint16_t field) {
  p.field = field;
  return p;
}

std::vector<FieldDef> layout_for(uint16_t id, uint8_t version,
                                 const std::vector<BlobPredicate>& preds) {
  if (const EventDef* ev = blob_schema().find_event(id, version))
    return etw::blob_layout(*ev, preds);
  std::vector<FieldDef> out;
  for (const BlobPredicate& p : preds) {
    if (out.size() <= p.field) out.resize(p.field + 1u, lf(InType::UInt32));
    out[p.field] = lf(p.type);
  }
  for (size_t i = 0; i < out.size(); ++i) out[i].name = "field" + std::to_string(i);
  return out;
}

BlobFilter filt(std::vector<BlobPredicate> preds, bool any, bool all, uint16_t id,
                uint8_t version) {
  std::vector<FieldDef> layout = layout_for(id, version, preds);
  return BlobFilter{id, version, any, all, std::move(preds), std::move(layout)};
}

BlobFilter with_layout(BlobFilter f, std::vector<FieldDef> layout) {
  f.layout = std::move(layout);
  return f;
}

BlobContents blob(std::vector<BlobFilter> filters) {
  return BlobContents{blob_schema().guid, std::move(filters)};
}

FieldDef lf(InType t, Extent length, Extent count) { return FieldDef{"", t, count, length}; }

namespace {

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
  return blob({filt({ip(t, Eq, min), ip(t, Ne, max), ip(t, Le, mid), ip(t, Gt, min), ip(t, Lt, max),
                     ip(t, Ge, 0), ip(t, Between, min, max), ip(t, NotBetween, 0, mid)}),
               filt({ip(t, Modulo, max), ip(t, Eq, 0)}, true, true)});
}

// `c` with `extra` more bytes of text in its last predicate (a string one).
BlobContents grow_text(BlobContents c, size_t extra) {
  c.filters.back().preds.back().value.text.append(extra, 'z');
  return c;
}

// As many one-predicate filters as fit in 4096 bytes, text filling the rest exactly.
BlobContents max_filters() {
  using enum PayloadOp;
  auto one = [](size_t i) {  // event 1 version 1, field 0 (wstring): a one-field layout
    return filt({sp(InType::UnicodeString, i % 2 ? IsNot : Is, "", 0)}, i % 2 == 1, i % 3 == 0, 1,
                1);
  };
  BlobContents c = blob({});
  while (etw::blob_size(c) + etw::blob_size(blob({one(0)})) - etw::kBlobHeaderSize <= 4096)
    c.filters.push_back(one(c.filters.size()));
  return grow_text(c, 4096 - etw::blob_size(c));
}

// Eight long strings (fields 0 and 1 of event 1 version 0) filling 4096 bytes exactly.
BlobContents max_size() {
  std::vector<BlobPredicate> texts;
  for (int i = 0; i < 8; ++i)
    texts.push_back(sp(i % 2 ? InType::AnsiString : InType::UnicodeString, PayloadOp::Contains,
                       std::string(1, static_cast<char>('a' + i))));
  BlobContents c = blob({filt(texts)});
  const size_t room = 4096 - etw::blob_size(c);
  for (size_t i = 0; i < 8; ++i)
    c.filters[0].preds[i].value.text.append(room / 8 + (i < room % 8 ? 1 : 0),
                                            static_cast<char>('a' + i));
  return c;
}

std::vector<Seed> valid_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto add = [&out](std::string name, const BlobContents& c) {
    out.push_back({std::move(name), etw::encode_blob(c)});
  };
  for (InType t : {InType::Int8, InType::UInt8, InType::Int16, InType::UInt16, InType::Int32,
                   InType::UInt32, InType::Int64, InType::UInt64, InType::Boolean, InType::Pointer,
                   InType::FileTime, InType::HexInt32, InType::HexInt64})
    add("int_" + std::string(in_type_name(t)), int_ops(t));
  for (InType t : {InType::UnicodeString, InType::AnsiString})
    add("str_" + std::string(in_type_name(t)),
        blob({filt({sp(t, Contains, "abc"), sp(t, DoesntContain, "h\xC3\xA9llo \xCE\xA3"),
                    sp(t, Is, ""), sp(t, IsNot, "\xF0\x9F\x98\x80 K\xE2\x84\xAA")})}));
  add("str_ansi_not_utf8", blob({filt({sp(InType::AnsiString, Is, "\xFF\xFE\x80")})}));
  add("str_fixed_length",
      blob({filt({sp(InType::UnicodeString, Contains, "12345678", kFixedStringField)})}));
  add("guid_is_isnot", blob({filt({gp(Is, "{0E95CFBC-58D4-44BA-BE40-E63A853536DF}"),
                                   gp(IsNot, "{00000000-0000-0000-0000-000000000000}")},
                                  true)}));
  for (int flags = 0; flags < 4; ++flags)
    add("flags_any" + std::to_string(flags & 1) + "_all" + std::to_string(flags >> 1),
        blob({filt({ip(InType::UInt32, Gt, 10), sp(InType::UnicodeString, Contains, "x")},
                   (flags & 1) != 0, (flags & 2) != 0)}));
  const BlobPredicate title = sp(InType::AnsiString, Contains, "err", 0);
  const BlobPredicate level = at(ip(InType::UInt32, Le, 4), 1);
  const BlobPredicate code = at(ip(InType::Int16, Between, static_cast<uint64_t>(-100), 100), 2);
  const BlobPredicate inst = at(gp(IsNot, "{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}"), 1);
  add("events_and_versions",
      blob({filt({ip(InType::UInt8, Eq, 3)}), filt({level}, false, true, 1, 1),
            filt({title, inst, code}, true, false, 2, 1), filt({ip(InType::Int64, Lt, 0)}, true)}));
  add("max_preds_8",
      blob({filt({ip(InType::Int8, Ge, static_cast<uint64_t>(-1)), ip(InType::UInt64, Modulo, 2),
                  sp(InType::UnicodeString, Is, "a"), sp(InType::AnsiString, IsNot, "b"),
                  gp(Is, "{11111111-2222-3333-4444-555555555555}"), ip(InType::Boolean, Eq, 1),
                  ip(InType::HexInt32, NotBetween, 16, 255), ip(InType::Pointer, Ne, 0)},
                 true)}));
  add("max_filters_4096", max_filters());
  add("max_size_4096", max_size());
  return out;
}

// Events blob_schema() lacks, resolved by their layouts alone (against the schema too: it
// does not define them), and layouts longer than the tested fields.
std::vector<Seed> layout_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto add = [&out](std::string name, const BlobContents& c) {
    out.push_back({"layout_" + std::move(name), etw::encode_blob(c)});
  };
  add("unknown_event", blob({filt({ip(InType::UInt32, Eq, 1)}, false, false, 3)}));
  add("unknown_version",
      blob({filt({sp(InType::AnsiString, Is, "x", 0), at(ip(InType::Int16, Ne, 0), 2)}, true, false,
                 2, 0)}));
  // Every extent kind in front of the tested fields: a u16 length, binary and array sized
  // by it, a fixed array, a fixed-length wstring, a NUL-terminated string, a count from field 0.
  const std::vector<FieldDef> extents = {lf(InType::UInt16),
                                         lf(InType::Binary, from(0)),
                                         lf(InType::UInt32, {}, fixed(3)),
                                         lf(InType::UnicodeString, fixed(4)),
                                         lf(InType::AnsiString),
                                         lf(InType::Int64),
                                         lf(InType::UInt8, {}, from(0)),
                                         lf(InType::Guid),
                                         lf(InType::AnsiString, from(0))};
  add("extents",
      blob({with_layout(
          filt({at(ip(InType::UInt16, Gt, 1), 0), at(sp(InType::UnicodeString, Contains, "ab"), 3),
                at(sp(InType::AnsiString, Is, "x"), 4), at(ip(InType::Int64, Lt, 0), 5),
                at(gp(IsNot, "{11111111-2222-3333-4444-555555555555}"), 7),
                at(sp(InType::AnsiString, IsNot, "y"), 8)},
               false, true, 40, 7),
          extents)}));
  add("whole_event", blob({with_layout(filt({sp(InType::UnicodeString, Is, "a", 0)}),
                                       blob_schema().events[0].fields)}));
  // Filters on one event: layouts of different lengths, one a prefix of the other.
  add("two_filters_one_event", blob({filt({ip(InType::UInt8, Eq, 1)}, false, false, 9),
                                     filt({at(ip(InType::UInt32, Eq, 2), 1)}, true, false, 9)}));
  return out;
}

// Resolve with no schema (the layout decides), but not against blob_schema().
std::vector<Seed> schema_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto add = [&out](std::string name, BlobContents c) {
    out.push_back({"schema_" + std::move(name), etw::encode_blob(c), Expect::LayoutOnly});
  };
  BlobContents wrong = blob({filt({ip(InType::UInt32, Eq, 1)})});
  wrong.provider = *Guid::parse("{0E95CFBC-58D4-44BA-BE40-E63A853536DF}");
  add("wrong_provider", wrong);
  BlobFilter type = filt({ip(InType::UInt32, Eq, 1)});
  type.layout[0].type = InType::AnsiString;  // untested field 0: wstring in the schema
  add("type_differs", blob({type}));
  BlobFilter extent = filt({gp(Is, "{11111111-2222-3333-4444-555555555555}")});
  extent.layout[type_field(InType::Binary)].length = fixed(5);  // binary[4] in the schema
  add("length_differs", blob({extent}));
  BlobFilter count = filt({gp(Is, "{11111111-2222-3333-4444-555555555555}")});
  count.layout[0].count = fixed(2);  // an untested array: allowed, but not the schema's
  add("count_differs", blob({count}));
  add("layout_longer",
      blob({filt({at(ip(InType::UInt32, Eq, 1), 1)}, false, false, 1, 1),
            with_layout(filt({at(ip(InType::UInt32, Eq, 1), 3)}, false, false, 2, 1),
                        {lf(InType::AnsiString), lf(InType::Guid), lf(InType::Int16),
                         lf(InType::UInt32)})}));
  return out;
}

// Decodes, but resolve_blob rejects it both ways (one reason per seed).
std::vector<Seed> unresolvable_seeds() {
  using enum PayloadOp;
  std::vector<Seed> out;
  auto add = [&out](std::string name, BlobContents c) {
    out.push_back({"resolve_" + std::move(name), etw::encode_blob(c), Expect::DecodesOnly});
  };
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
  add("second_filter_bad",
      blob({filt({ip(InType::UInt32, Eq, 1)}), filt({ip(InType::Int8, Eq, 128)})}));
  add("unknown_event_bad_value", blob({filt({ip(InType::UInt8, Eq, 256)}, false, false, 3)}));
  return out;
}

// What the bytes do; nullopt for the impossible "resolves against the schema only".
std::optional<Expect> outcome(const std::vector<uint8_t>& b) {
  const auto decoded = etw::decode_blob(b.data(), b.size());
  if (!decoded) return Expect::Rejected;
  const bool schema = etw::resolve_blob(*decoded, &blob_schema()).has_value();
  const bool alone = etw::resolve_blob(*decoded, nullptr).has_value();
  if (schema && !alone) return std::nullopt;
  return alone ? (schema ? Expect::Resolves : Expect::LayoutOnly) : Expect::DecodesOnly;
}

bool write_seed(const std::string& dir, const Seed& s) {
  const std::string path = dir + "/" + s.name + ".blob";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || std::fwrite(s.bytes.data(), 1, s.bytes.size(), f) != s.bytes.size() ||
      std::fclose(f) != 0) {
    std::fprintf(stderr, "%s: cannot write\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace
}  // namespace pfc::fuzz::seeds

int main(int argc, char** argv) {
  using namespace pfc::fuzz::seeds;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  std::vector<Seed> seeds;
  for (auto* more :
       {&valid_seeds, &layout_seeds, &schema_seeds, &unresolvable_seeds, &structural_seeds}) {
    std::vector<Seed> s = more();
    seeds.insert(seeds.end(), s.begin(), s.end());
  }
  size_t total = 0;
  for (const Seed& s : seeds) {
    if (outcome(s.bytes) != s.expect) {
      std::fprintf(stderr, "%s: does not do what it is meant to\n", s.name.c_str());
      return 1;
    }
    if (!write_seed(argv[1], s)) return 1;
    total += s.bytes.size();
  }
  std::printf("%zu seeds, %zu bytes\n", seeds.size(), total);
  return 0;
}
