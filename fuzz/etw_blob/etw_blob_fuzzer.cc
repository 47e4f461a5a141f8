// fuzz/etw_blob/etw_blob_fuzzer.cc — the payload filter blob validator (etw/payload_blob.h)
// on arbitrary bytes. Each input is decoded three times: as given (almost always rejected by
// the checksum), with its checksum field fixed up, and with every derived header field fixed
// up (total size, layout table offset from the counts, string table offset and size after
// walking the layout counts, then the checksum), so byte insertions and deletions in the
// tables still reach the structural checks behind the header. A blob that decodes is
// resolved against blob_schema.h and with no schema (the layouts alone): what resolves
// against the schema resolves without it, to the same filters, each carrying its decoded
// layout; what resolves lowers to a routing program, for the provider with its schema and
// without (EnableTraceEx2 accepts it, so every provider process must be able to compile it). The
// blob re-encodes to blob_size bytes and survives an encode/decode round trip unchanged (layouts
// included) and byte-stable. Seeds: fuzz/corpus/etw_blob/ (make_seeds.cc).
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "compiler/lower.h"
#include "etw/payload_blob.h"
#include "etw_blob/blob_schema.h"

namespace {

using namespace pfc;

bool same_extent(const Extent& a, const Extent& b) {
  return a.kind == b.kind && a.value == b.value;
}

bool same_fields(const std::vector<FieldDef>& a, const std::vector<FieldDef>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].type != b[i].type || !same_extent(a[i].count, b[i].count) ||
        !same_extent(a[i].length, b[i].length))
      return false;
  }
  return true;
}

bool same_value(const PayloadValue& p, const PayloadValue& q) {
  return p.lo == q.lo && p.hi == q.hi && p.text == q.text && p.guid == q.guid;
}

bool same_pred(const etw::BlobPredicate& p, const etw::BlobPredicate& q) {
  return p.field == q.field && p.op == q.op && p.type == q.type && same_value(p.value, q.value);
}

bool same(const etw::BlobContents& a, const etw::BlobContents& b) {
  if (!(a.provider == b.provider) || a.filters.size() != b.filters.size()) return false;
  for (size_t i = 0; i < a.filters.size(); ++i) {
    const etw::BlobFilter& x = a.filters[i];
    const etw::BlobFilter& y = b.filters[i];
    if (x.event_id != y.event_id || x.event_version != y.event_version ||
        x.match_any != y.match_any || x.group_all != y.group_all ||
        x.preds.size() != y.preds.size() || !same_fields(x.layout, y.layout))
      return false;
    for (size_t k = 0; k < x.preds.size(); ++k) {
      if (!same_pred(x.preds[k], y.preds[k])) return false;
    }
  }
  return true;
}

// A resolved blob keeps every filter and predicate, flat (n Pred nodes and one And/Or
// root), and carries each filter's layout as decoded.
void check_shape(const etw::BlobContents& c, const std::vector<PayloadFilter>& resolved) {
  if (resolved.size() != c.filters.size()) __builtin_trap();
  for (size_t i = 0; i < c.filters.size(); ++i) {
    const PayloadFilter& pf = resolved[i];
    const etw::BlobFilter& bf = c.filters[i];
    const size_t n = bf.preds.size();
    if (pf.event_id != bf.event_id || pf.event_version != bf.event_version ||
        pf.group_all != bf.group_all || pf.expr.preds.size() != n ||
        pf.expr.nodes.size() != n + 1 || !pf.layout || !same_fields(pf.layout->fields, bf.layout))
      __builtin_trap();
    for (size_t k = 0; k < n; ++k) {
      const PayloadPredicate& p = pf.expr.preds[k];
      if (p.field != bf.preds[k].field || p.op != bf.preds[k].op ||
          !same_value(p.value, bf.preds[k].value))
        __builtin_trap();
    }
  }
}

// What EnableTraceEx2 accepts compiles: one session filtering with the resolved filters,
// for the provider `schema` (a process with the manifest loaded) or, when null, for a
// provider whose schema defines no event (a process without the manifest).
void check_lowers(const etw::BlobContents& c, const std::vector<PayloadFilter>& resolved,
                  const ProviderDef* schema) {
  ProgramSpec spec;
  if (schema != nullptr) spec.provider = *schema;
  spec.provider.name = "blob";
  spec.provider.guid = c.provider;
  EnableParams params;
  params.level = 5;
  params.payload = resolved;
  spec.sessions.push_back(SessionEntry{0, std::move(params)});
  if (!lower(spec)) __builtin_trap();
}

void check_resolved(const etw::BlobContents& c) {
  const auto with_schema = etw::resolve_blob(c, &fuzz::blob_schema());
  const auto alone = etw::resolve_blob(c, nullptr);
  if (with_schema && !alone) __builtin_trap();  // the schema only adds checks
  if (with_schema) {
    check_shape(c, *with_schema);
    check_lowers(c, *with_schema, &fuzz::blob_schema());
  }
  if (!alone) return;
  check_shape(c, *alone);
  check_lowers(c, *alone, nullptr);
}

void check_decoded(const uint8_t* data, size_t size) {
  const auto decoded = etw::decode_blob(data, size);
  if (!decoded) return;  // rejected: the expected outcome for most inputs
  check_resolved(*decoded);
  const std::vector<uint8_t> again = etw::encode_blob(*decoded);
  if (again.size() != etw::blob_size(*decoded)) __builtin_trap();
  const auto round = etw::decode_blob(again.data(), again.size());
  if (!round || !same(*decoded, *round)) __builtin_trap();
  if (etw::encode_blob(*round) != again) __builtin_trap();  // encoding is canonical
}

template <typename T>
void put(std::vector<uint8_t>& b, size_t at, T v) {
  std::memcpy(b.data() + at, &v, sizeof v);
}

void fix_checksum(std::vector<uint8_t>& b) {
  put<uint32_t>(b, etw::kBlobChecksumOffset, etw::blob_checksum(b.data(), b.size()));
}

template <typename T>
T get(const std::vector<uint8_t>& b, size_t at) {
  T v;
  std::memcpy(&v, b.data() + at, sizeof v);
  return v;
}

// Where the layout table (one counted entry per filter, from `at`) ends, or nullopt when
// it runs past the end of `b`.
std::optional<size_t> layouts_end(const std::vector<uint8_t>& b, size_t at, uint16_t filters) {
  for (uint16_t i = 0; i < filters; ++i) {
    if (b.size() - at < 4) return std::nullopt;
    at += 4 + size_t{etw::kBlobLayoutFieldSize} * get<uint16_t>(b, at);
    if (at > b.size()) return std::nullopt;
  }
  return at;
}

// Total size, layout table offset, string table offset and size as the counts in the
// header and the layout table imply.
void fix_header(std::vector<uint8_t>& b) {
  const uint16_t filters = get<uint16_t>(b, 32);
  const uint16_t preds = get<uint16_t>(b, 34);
  const size_t tables = etw::kBlobHeaderSize + size_t{etw::kBlobFilterSize} * filters +
                        size_t{etw::kBlobPredicateSize} * preds;
  put<uint32_t>(b, 8, static_cast<uint32_t>(b.size()));
  if (tables <= b.size()) {
    put<uint32_t>(b, 44, static_cast<uint32_t>(tables));
    const size_t strings = layouts_end(b, tables, filters).value_or(tables);
    put<uint32_t>(b, 36, static_cast<uint32_t>(strings));
    put<uint32_t>(b, 40, static_cast<uint32_t>(b.size() - strings));
  }
  fix_checksum(b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;  // blobs are at most 4096 bytes; longer inputs add nothing
  check_decoded(data, size);
  if (size < pfc::etw::kBlobHeaderSize) return 0;  // no checksum field to fix up
  std::vector<uint8_t> fixed(data, data + size);
  fix_checksum(fixed);
  check_decoded(fixed.data(), fixed.size());
  std::vector<uint8_t> derived(data, data + size);
  fix_header(derived);
  if (derived != fixed) check_decoded(derived.data(), derived.size());
  return 0;
}
