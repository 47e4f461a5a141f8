// fuzz/etw_blob/etw_blob_fuzzer.cc — the payload filter blob validator (etw/payload_blob.h)
// on arbitrary bytes. Each input is decoded three times: as given (almost always rejected by
// the checksum), with its checksum field fixed up, and with every derived header field fixed
// up (total size, string table offset and size from the counts, then the checksum), so byte
// insertions and deletions in the tables still reach the structural checks behind the
// header. A blob that decodes must resolve safely against blob_schema.h, re-encode to
// blob_size bytes, and survive an encode/decode round trip unchanged and byte-stable.
// Seeds: fuzz/corpus/etw_blob/ (make_seeds.cc).
#include <cstdint>
#include <cstring>
#include <vector>

#include "etw/payload_blob.h"
#include "etw_blob/blob_schema.h"

namespace {

using namespace pfc;

bool same_pred(const etw::BlobPredicate& p, const etw::BlobPredicate& q) {
  return p.field == q.field && p.op == q.op && p.type == q.type && p.value.lo == q.value.lo &&
         p.value.hi == q.value.hi && p.value.text == q.value.text && p.value.guid == q.value.guid;
}

bool same(const etw::BlobContents& a, const etw::BlobContents& b) {
  if (!(a.provider == b.provider) || a.filters.size() != b.filters.size()) return false;
  for (size_t i = 0; i < a.filters.size(); ++i) {
    const etw::BlobFilter& x = a.filters[i];
    const etw::BlobFilter& y = b.filters[i];
    if (x.event_id != y.event_id || x.event_version != y.event_version ||
        x.match_any != y.match_any || x.group_all != y.group_all || x.preds.size() != y.preds.size())
      return false;
    for (size_t k = 0; k < x.preds.size(); ++k) {
      if (!same_pred(x.preds[k], y.preds[k])) return false;
    }
  }
  return true;
}

// A resolved blob keeps every filter and predicate, flat: n Pred nodes and one And/Or root.
void check_resolved(const etw::BlobContents& c) {
  const auto resolved = etw::resolve_blob(c, &fuzz::blob_schema());
  if (!resolved) return;
  if (resolved->size() != c.filters.size()) __builtin_trap();
  for (size_t i = 0; i < c.filters.size(); ++i) {
    const PayloadFilter& pf = (*resolved)[i];
    const size_t n = c.filters[i].preds.size();
    if (pf.event_id != c.filters[i].event_id || pf.group_all != c.filters[i].group_all ||
        pf.expr.preds.size() != n || pf.expr.nodes.size() != n + 1)
      __builtin_trap();
  }
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

// Total size, string table offset and size as the counts in the header imply.
void fix_header(std::vector<uint8_t>& b) {
  uint16_t filters = 0, preds = 0;
  std::memcpy(&filters, b.data() + 32, 2);
  std::memcpy(&preds, b.data() + 34, 2);
  const size_t tables = etw::kBlobHeaderSize + size_t{etw::kBlobFilterSize} * filters +
                        size_t{etw::kBlobPredicateSize} * preds;
  put<uint32_t>(b, 8, static_cast<uint32_t>(b.size()));
  if (tables <= b.size()) {
    put<uint32_t>(b, 36, static_cast<uint32_t>(tables));
    put<uint32_t>(b, 40, static_cast<uint32_t>(b.size() - tables));
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
