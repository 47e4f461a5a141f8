// etw/payload_blob.cc — encoding, validating decoding and schema resolution of the
// aggregated payload filter blob (payload_blob.h). The decoder trusts nothing: every
// offset and count is checked against the blob size before it is used, all reads are
// memcpy within [data, data + size), and values are re-validated with the TDH conversion
// rules of compiler/convert.h when resolved against the schema.
#include "etw/payload_blob.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "base/payload_ops.h"
#include "compiler/convert.h"
#include "compiler/regex_pred.h"
#include "runtime/glob.h"

namespace pfc::etw {
namespace {

using internal::find_etw_payload_op;
using internal::payload_op_takes_pair;

bool is_string(InType t) { return internal::payload_value_kind(t) == internal::ValueKind::String; }
bool is_guid(InType t) { return internal::payload_value_kind(t) == internal::ValueKind::Guid; }

size_t predicate_count(const BlobContents& c) {
  size_t n = 0;
  for (const BlobFilter& f : c.filters) n += f.preds.size();
  return n;
}

// The (a, b) words of one predicate; strings are appended to `strings`.
void predicate_words(const BlobPredicate& p, std::string& strings, uint64_t& a, uint64_t& b) {
  if (is_string(p.type)) {
    a = strings.size();
    b = p.value.text.size();
    strings += p.value.text;
  } else if (is_guid(p.type)) {
    const std::array<uint8_t, 16> bytes = p.value.guid.to_bytes();
    std::memcpy(&a, bytes.data(), 8);
    std::memcpy(&b, bytes.data() + 8, 8);
  } else {
    a = p.value.lo;
    b = payload_op_takes_pair(p.op) ? p.value.hi : 0;
  }
}

}  // namespace

void put_blob_predicate(std::vector<uint8_t>& out, size_t at, const BlobPredicate& p,
                        std::string& strings) {
  uint64_t a = 0, b = 0;
  predicate_words(p, strings, a, b);
  store_le<uint16_t>(out, at, p.field);
  store_le<uint16_t>(out, at + 2, static_cast<uint16_t>(p.op));
  store_le<uint16_t>(out, at + 4, static_cast<uint16_t>(p.type));
  store_le<uint64_t>(out, at + 8, a);
  store_le<uint64_t>(out, at + 16, b);
}

void append_layout(std::vector<uint8_t>& out, const std::vector<FieldDef>& layout) {
  const size_t at = out.size();
  out.resize(at + 4);
  store_le<uint16_t>(out, at, static_cast<uint16_t>(layout.size()));
  append_fields(out, layout);
}

void append_fields(std::vector<uint8_t>& out, const std::vector<FieldDef>& fields) {
  size_t at = out.size();
  out.resize(at + kBlobLayoutFieldSize * fields.size());
  for (const FieldDef& f : fields) {
    store_le<uint16_t>(out, at, static_cast<uint16_t>(f.type));
    out[at + 2] = static_cast<uint8_t>(f.count.kind);
    out[at + 3] = static_cast<uint8_t>(f.length.kind);
    store_le<uint32_t>(out, at + 4, f.count.value);
    store_le<uint32_t>(out, at + 8, f.length.value);
    at += kBlobLayoutFieldSize;
  }
}

std::vector<FieldDef> blob_layout(const EventDef& event, const std::vector<BlobPredicate>& preds) {
  size_t n = 0;
  for (const BlobPredicate& p : preds) n = std::max<size_t>(n, p.field + 1u);
  n = std::min(n, event.fields.size());
  return std::vector<FieldDef>(event.fields.begin(),
                               event.fields.begin() + static_cast<ptrdiff_t>(n));
}

namespace {

// FNV-1a 32 over `n` bytes, continuing from `h`; four bytes a step (the same result).
uint32_t fnv1a(uint32_t h, const uint8_t* p, size_t n) {
  constexpr uint32_t kPrime = 16777619u;
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    h = (h ^ p[i]) * kPrime;
    h = (h ^ p[i + 1]) * kPrime;
    h = (h ^ p[i + 2]) * kPrime;
    h = (h ^ p[i + 3]) * kPrime;
  }
  for (; i < n; ++i) h = (h ^ p[i]) * kPrime;
  return h;
}

}  // namespace

uint32_t blob_checksum(const uint8_t* data, size_t size) {
  static constexpr uint8_t kZeros[4] = {};
  constexpr size_t kAt = kBlobChecksumOffset, kEnd = kBlobChecksumOffset + 4;
  uint32_t h = fnv1a(2166136261u, data, std::min(size, kAt));
  if (size > kAt) h = fnv1a(h, kZeros, std::min(size, kEnd) - kAt);  // the field as zeros
  if (size > kEnd) h = fnv1a(h, data + kEnd, size - kEnd);
  return h;
}

size_t blob_size(const BlobContents& c) {
  size_t n = kBlobHeaderSize + kBlobFilterSize * c.filters.size();
  for (const BlobFilter& f : c.filters) {
    n += kBlobPredicateSize * f.preds.size() + 4 + kBlobLayoutFieldSize * f.layout.size();
    for (const BlobPredicate& p : f.preds) {
      if (is_string(p.type)) n += p.value.text.size();
    }
  }
  return n;
}

std::vector<uint8_t> encode_blob(const BlobContents& c) {
  const size_t preds = predicate_count(c);
  const size_t layout_at =
      kBlobHeaderSize + kBlobFilterSize * c.filters.size() + kBlobPredicateSize * preds;
  std::vector<uint8_t> out(layout_at);
  for (const BlobFilter& f : c.filters) append_layout(out, f.layout);
  const size_t strings_at = out.size();
  std::string strings;
  size_t f_at = kBlobHeaderSize;
  size_t p_at = kBlobHeaderSize + kBlobFilterSize * c.filters.size();
  uint16_t first = 0;
  for (const BlobFilter& f : c.filters) {
    store_le<uint16_t>(out, f_at, f.event_id);
    out[f_at + 2] = f.event_version;
    out[f_at + 3] = static_cast<uint8_t>((f.match_any ? 1 : 0) | (f.group_all ? 2 : 0));
    store_le<uint16_t>(out, f_at + 4, first);
    store_le<uint16_t>(out, f_at + 6, static_cast<uint16_t>(f.preds.size()));
    first = static_cast<uint16_t>(first + f.preds.size());
    f_at += kBlobFilterSize;
    for (const BlobPredicate& p : f.preds) {
      put_blob_predicate(out, p_at, p, strings);
      p_at += kBlobPredicateSize;
    }
  }
  out.insert(out.end(), strings.begin(), strings.end());
  store_le<uint32_t>(out, 0, kBlobMagic);
  store_le<uint16_t>(out, 4, kBlobVersion);
  store_le<uint16_t>(out, 6, static_cast<uint16_t>(kBlobHeaderSize));
  store_le<uint32_t>(out, 8, static_cast<uint32_t>(out.size()));
  const std::array<uint8_t, 16> guid = c.provider.to_bytes();
  std::memcpy(out.data() + 16, guid.data(), 16);
  store_le<uint16_t>(out, 32, static_cast<uint16_t>(c.filters.size()));
  store_le<uint16_t>(out, 34, static_cast<uint16_t>(preds));
  store_le<uint32_t>(out, 36, static_cast<uint32_t>(strings_at));
  store_le<uint32_t>(out, 40, static_cast<uint32_t>(strings.size()));
  store_le<uint32_t>(out, 44, static_cast<uint32_t>(layout_at));
  store_le<uint32_t>(out, kBlobChecksumOffset, blob_checksum(out.data(), out.size()));
  return out;
}

// --- decoding ------------------------------------------------------------------------

bool same_field(const FieldDef& a, const FieldDef& b) {
  const auto same = [](const Extent& x, const Extent& y) {
    return x.kind == y.kind && x.value == y.value;
  };
  return a.type == b.type && same(a.count, b.count) && same(a.length, b.length);
}

namespace {

bool known_op(uint16_t op, BlobOps ops) {
  if (ops == BlobOps::Etw) return find_etw_payload_op(op) != nullptr;
  const internal::PayloadOpInfo* row = internal::find_payload_op(op);
  return row != nullptr && (row->flags & internal::kListOp) == 0;
}

bool known_type(uint16_t t) { return in_type_known(t); }

// The header's fixed fields; false when they cannot describe a blob of `size` bytes.
struct Header {
  uint16_t filters = 0;
  uint16_t preds = 0;
  uint32_t layout_at = 0;
  uint32_t strings_at = 0;
  uint32_t strings_size = 0;
};

bool decode_header(const uint8_t* d, size_t size, Header& h) {
  if (size < kBlobHeaderSize) return false;
  if (load_le<uint32_t>(d) != kBlobMagic || load_le<uint16_t>(d + 4) != kBlobVersion ||
      load_le<uint16_t>(d + 6) != kBlobHeaderSize || load_le<uint32_t>(d + 8) != size)
    return false;
  if (load_le<uint32_t>(d + kBlobChecksumOffset) != blob_checksum(d, size)) return false;
  h.filters = load_le<uint16_t>(d + 32);
  h.preds = load_le<uint16_t>(d + 34);
  h.strings_at = load_le<uint32_t>(d + 36);
  h.strings_size = load_le<uint32_t>(d + 40);
  h.layout_at = load_le<uint32_t>(d + 44);
  const uint64_t tables = uint64_t{kBlobHeaderSize} + uint64_t{kBlobFilterSize} * h.filters +
                          uint64_t{kBlobPredicateSize} * h.preds;
  return h.filters != 0 && h.layout_at == tables && h.strings_at >= h.layout_at &&
         uint64_t{h.strings_at} + h.strings_size == size;
}

}  // namespace

bool decode_predicate(const uint8_t* p, const uint8_t* strings, uint32_t strings_size, BlobOps ops,
                      BlobPredicate& out) {
  const uint16_t op = load_le<uint16_t>(p + 2);
  const uint16_t type = load_le<uint16_t>(p + 4);
  if (!known_op(op, ops) || !known_type(type) || load_le<uint16_t>(p + 6) != 0) return false;
  out.field = load_le<uint16_t>(p);
  out.op = static_cast<PayloadOp>(op);
  out.type = static_cast<InType>(type);
  const uint64_t a = load_le<uint64_t>(p + 8);
  const uint64_t b = load_le<uint64_t>(p + 16);
  if (is_string(out.type)) {
    if (a > strings_size || b > strings_size - a) return false;
    out.value.text.assign(reinterpret_cast<const char*>(strings + a), b);
  } else if (is_guid(out.type)) {
    uint8_t bytes[16];
    std::memcpy(bytes, p + 8, 16);
    out.value.guid = Guid::from_bytes(bytes);
  } else {
    if (!payload_op_takes_pair(out.op) && b != 0) return false;
    out.value.lo = a;
    out.value.hi = b;
  }
  return true;
}

namespace {

// A count or length of the field after `earlier`. Taken from a field, it must name an
// earlier scalar Int8..UInt64 field, as in a manifest (runtime/manifest_events.cc).
bool decode_extent(uint8_t kind, uint32_t value, const std::vector<FieldDef>& earlier,
                   Extent& out) {
  if (kind > static_cast<uint8_t>(Extent::Kind::Field)) return false;
  out.kind = static_cast<Extent::Kind>(kind);
  out.value = value;
  if (out.kind == Extent::Kind::None) return value == 0;
  if (out.kind == Extent::Kind::Fixed) return true;
  if (value >= earlier.size()) return false;
  const FieldDef& source = earlier[value];
  return in_type_is_count(source.type) && !source.count.present();
}

// One layout field at `p` after `earlier`: a known in-type, its extents, and the rules of
// manifests: lengths apply to strings and binary only, and binary data has one.
bool decode_field(const uint8_t* p, const std::vector<FieldDef>& earlier, FieldDef& f) {
  const uint16_t type = load_le<uint16_t>(p);
  if (!known_type(type)) return false;
  f.type = static_cast<InType>(type);
  f.name = "field" + std::to_string(earlier.size());
  if (!decode_extent(p[2], load_le<uint32_t>(p + 4), earlier, f.count) ||
      !decode_extent(p[3], load_le<uint32_t>(p + 8), earlier, f.length))
    return false;
  const bool takes_length = is_string(f.type) || f.type == InType::Binary;
  return takes_length ? f.length.present() || f.type != InType::Binary : !f.length.present();
}

}  // namespace

bool decode_fields(const uint8_t* d, size_t end, size_t& at, uint32_t count,
                   std::vector<FieldDef>& out) {
  if (at > end || (end - at) / kBlobLayoutFieldSize < count) return false;
  for (uint32_t i = 0; i < count; ++i, at += kBlobLayoutFieldSize) {
    FieldDef f;
    if (!decode_field(d + at, out, f)) return false;
    out.push_back(std::move(f));
  }
  return true;
}

bool decode_layout(const uint8_t* d, size_t end, size_t& at, BlobFilter& bf) {
  if (at > end || end - at < 4) return false;
  const uint16_t count = load_le<uint16_t>(d + at);
  if (count == 0 || count > kBlobMaxLayoutFields || load_le<uint16_t>(d + at + 2) != 0)
    return false;
  at += 4;
  if (!decode_fields(d, end, at, count, bf.layout)) return false;
  for (const BlobPredicate& p : bf.preds) {
    if (p.field >= bf.layout.size()) return false;
    const FieldDef& f = bf.layout[p.field];
    if (f.type != p.type || f.count.present()) return false;
  }
  return true;
}

// Filters on the same event describe it alike as far as both layouts reach (each is the
// event's fields up to its highest tested field): a routing program lays the event out by
// the longest one (compiler/lower.cc).
bool blob_layouts_agree(const std::vector<BlobFilter>& filters) {
  std::map<std::pair<uint16_t, uint8_t>, const std::vector<FieldDef>*> longest;
  for (const BlobFilter& f : filters) {
    const std::vector<FieldDef>*& l = longest[{f.event_id, f.event_version}];
    if (l == nullptr || l->size() < f.layout.size()) l = &f.layout;
  }
  for (const BlobFilter& f : filters) {
    const std::vector<FieldDef>& l = *longest[{f.event_id, f.event_version}];
    if (!std::equal(f.layout.begin(), f.layout.end(), l.begin(), same_field)) return false;
  }
  return true;
}

std::optional<BlobContents> decode_blob(const uint8_t* d, size_t size) {
  Header h;
  if (d == nullptr || !decode_header(d, size, h)) return std::nullopt;
  BlobContents out;
  out.provider = Guid::from_bytes(d + 16);
  const uint8_t* preds = d + kBlobHeaderSize + size_t{kBlobFilterSize} * h.filters;
  uint32_t next = 0;
  for (uint32_t i = 0; i < h.filters; ++i) {
    const uint8_t* f = d + kBlobHeaderSize + size_t{kBlobFilterSize} * i;
    BlobFilter bf;
    bf.event_id = load_le<uint16_t>(f);
    bf.event_version = f[2];
    if ((f[3] & ~3u) != 0) return std::nullopt;
    bf.match_any = (f[3] & 1) != 0;
    bf.group_all = (f[3] & 2) != 0;
    const uint16_t first = load_le<uint16_t>(f + 4);
    const uint16_t count = load_le<uint16_t>(f + 6);
    if (first != next || count == 0 || count > kBlobMaxPredicates || count > h.preds - next)
      return std::nullopt;
    for (uint32_t k = 0; k < count; ++k) {
      BlobPredicate p;
      if (!decode_predicate(preds + size_t{kBlobPredicateSize} * (first + k), d + h.strings_at,
                            h.strings_size, BlobOps::Etw, p))
        return std::nullopt;
      bf.preds.push_back(std::move(p));
    }
    next += count;
    out.filters.push_back(std::move(bf));
  }
  if (next != h.preds) return std::nullopt;
  size_t at = h.layout_at;
  for (BlobFilter& bf : out.filters)
    if (!decode_layout(d, h.strings_at, at, bf)) return std::nullopt;
  if (at != h.strings_at || !blob_layouts_agree(out.filters)) return std::nullopt;
  return out;
}

// --- resolution against the schema ----------------------------------------------------

namespace {

// An integer's bits as its decimal text (signed or not) parses: its magnitude and sign.
ast::Int as_written(uint64_t bits, bool is_signed) {
  const bool negative = is_signed && static_cast<int64_t>(bits) < 0;
  return ast::Int{negative ? uint64_t{0} - bits : bits, negative, {}};
}

// The value as TDH text, converted again: accepted iff TDH conversion can produce it.
// Integers go as the magnitude and sign their decimal text parses to (the same conversion,
// without printing and parsing the text).
bool value_fits(const FieldDef& f, const BlobPredicate& p) {
  if (internal::payload_value_kind(f.type) == internal::ValueKind::Integer) {
    const bool sgn = in_type_is_signed(f.type);
    ast::Value v;
    v.kind = payload_op_takes_pair(p.op) ? ast::Value::Kind::IntPair : ast::Value::Kind::Int;
    v.lo = as_written(p.value.lo, sgn);
    v.hi = as_written(p.value.hi, sgn);
    internal::ConvertResult r = internal::convert_value(f.name, f.type, p.op, v);
    return r && r->lo == p.value.lo && (!payload_op_takes_pair(p.op) || r->hi == p.value.hi);
  }
  std::string text;
  if (is_string(f.type)) {
    text = p.value.text;
  } else if (is_guid(f.type)) {
    text = p.value.guid.to_string();
  } else {
    const bool sgn = in_type_is_signed(f.type);
    auto one = [sgn](uint64_t v) {
      return sgn ? std::to_string(static_cast<int64_t>(v)) : std::to_string(v);
    };
    text = one(p.value.lo);
    if (payload_op_takes_pair(p.op)) text += "," + one(p.value.hi);
  }
  internal::ConvertResult r = internal::convert_value_text(f.name, f.type, p.op, text);
  if (!r) return false;
  if (is_string(f.type) || is_guid(f.type)) return true;
  return r->lo == p.value.lo && (!payload_op_takes_pair(p.op) || r->hi == p.value.hi);
}

// A pattern operator's pattern compiles (the checker's test, compiler/check_payload.cc).
bool pattern_compiles(const BlobPredicate& p) {
  const bool cs = internal::payload_op_has(p.op, internal::kCaseSensitive);
  if (p.op == PayloadOp::Matches || p.op == PayloadOp::MatchesCs)
    return compile_glob(p.value.text, !cs).error.empty();
  return internal::compile_regex(p.value.text, cs).re != nullptr;
}

// `p` on field `f` of an event laid out as `fields`: its value as value_fits, a pattern
// that compiles, or for a field-to-field operator a comparable field of the layout.
bool predicate_fits(const std::vector<FieldDef>& fields, const FieldDef& f,
                    const BlobPredicate& p) {
  if (internal::payload_op_has(p.op, internal::kFieldOp)) {
    return p.value.lo < fields.size() &&
           internal::field_pair_issue(f, fields[p.value.lo]) == internal::FieldPairIssue::None;
  }
  if (!value_fits(f, p)) return false;
  return !internal::payload_op_has(p.op, internal::kPatternOp) || pattern_compiles(p);
}

}  // namespace

PayloadExpr make_flat_expr(std::vector<PayloadPredicate> preds, bool match_any) {
  PayloadExpr e;
  const auto n = static_cast<uint32_t>(preds.size());
  e.preds = std::move(preds);
  for (uint32_t i = 0; i < n; ++i) {
    e.nodes.push_back({PayloadExpr::Node::Kind::Pred, i, 0});
    e.kids.push_back(i);
  }
  e.nodes.push_back({match_any ? PayloadExpr::Node::Kind::Or : PayloadExpr::Node::Kind::And, 0, n});
  return e;
}

namespace {

// The filter's layout as an event definition; with a schema defining the event, its field
// names, after checking the layouts agree.
std::shared_ptr<const EventDef> layout_event(const BlobFilter& bf, const ProviderDef* schema) {
  auto ev = std::make_shared<EventDef>();
  ev->desc.id = bf.event_id;
  ev->desc.version = bf.event_version;
  ev->name = "event " + std::to_string(bf.event_id);
  ev->fields = bf.layout;
  const EventDef* known =
      schema != nullptr ? schema->find_event(bf.event_id, bf.event_version) : nullptr;
  if (known == nullptr) return ev;
  if (known->fields.size() < bf.layout.size()) return nullptr;
  for (size_t i = 0; i < bf.layout.size(); ++i) {
    const FieldDef& k = known->fields[i];
    const FieldDef& l = bf.layout[i];
    if (!same_field(k, l)) return nullptr;
    ev->fields[i].name = k.name;
  }
  ev->name = known->name;
  return ev;
}

}  // namespace

bool resolve_blob_filter(const BlobFilter& bf, const ProviderDef* schema,
                         std::vector<PayloadPredicate>& preds, PayloadFilter& out) {
  std::shared_ptr<const EventDef> ev = layout_event(bf, schema);
  if (!ev) return false;
  preds.reserve(preds.size() + bf.preds.size());
  for (const BlobPredicate& p : bf.preds) {
    if (p.field >= ev->fields.size()) return false;
    const FieldDef& f = ev->fields[p.field];
    if (f.type != p.type || f.count.present() || !predicate_fits(ev->fields, f, p)) return false;
    preds.push_back(PayloadPredicate{p.field, p.op, p.value});
  }
  out.event_id = bf.event_id;
  out.event_version = bf.event_version;
  out.group_all = bf.group_all;
  out.layout = std::move(ev);
  return true;
}

std::optional<std::vector<PayloadFilter>> resolve_blob(const BlobContents& c,
                                                       const ProviderDef* schema) {
  if (schema != nullptr && !(c.provider == schema->guid)) return std::nullopt;
  std::vector<PayloadFilter> out;
  for (const BlobFilter& bf : c.filters) {
    std::vector<PayloadPredicate> preds;
    PayloadFilter pf;
    if (!resolve_blob_filter(bf, schema, preds, pf)) return std::nullopt;
    pf.expr = make_flat_expr(std::move(preds), bf.match_any);
    out.push_back(std::move(pf));
  }
  return out;
}

}  // namespace pfc::etw
