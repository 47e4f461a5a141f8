// fuzz/etw_blob/etw_blob_fuzzer.cc — the payload filter blob validator (etw/payload_blob.h)
// on arbitrary bytes. Each input is decoded twice: as given (almost always rejected by the
// checksum) and with its checksum field fixed up, so the structural checks behind it are
// reached. A blob that decodes must resolve safely against a schema and survive an
// encode/decode round trip unchanged.
#include <cstdint>
#include <cstring>
#include <vector>

#include "etw/payload_blob.h"

namespace {

using namespace pfc;

const ProviderDef& schema() {
  static const ProviderDef p = [] {
    ProviderDef d;
    d.name = "Example-Provider";
    d.guid = *Guid::parse("{37A59B93-BB25-4CEE-97AA-8B6ACD0C4DF8}");
    EventDef e1{"Example_Event_1", {}, {{"Initiator", InType::UnicodeString, {}, {}},
                                        {"Level", InType::UInt32, {}, {}}}};
    e1.desc.id = 1;
    EventDef e2{"Example_Event_2", {}, {{"Title", InType::AnsiString, {}, {}},
                                        {"InstanceId", InType::Guid, {}, {}},
                                        {"ErrorCode", InType::Int16, {}, {}}}};
    e2.desc.id = 2;
    d.events = {e1, e2};
    return d;
  }();
  return p;
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
      const etw::BlobPredicate& p = x.preds[k];
      const etw::BlobPredicate& q = y.preds[k];
      if (p.field != q.field || p.op != q.op || p.type != q.type || p.value.lo != q.value.lo ||
          p.value.hi != q.value.hi || p.value.text != q.value.text || !(p.value.guid == q.value.guid))
        return false;
    }
  }
  return true;
}

void check_decoded(const uint8_t* data, size_t size) {
  const auto decoded = etw::decode_blob(data, size);
  if (!decoded) return;  // rejected: the expected outcome for most inputs
  (void)etw::resolve_blob(*decoded, schema());
  const std::vector<uint8_t> again = etw::encode_blob(*decoded);
  const auto round = etw::decode_blob(again.data(), again.size());
  if (!round || !same(*decoded, *round)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;  // blobs are at most 4096 bytes; longer inputs add nothing
  check_decoded(data, size);
  if (size < pfc::etw::kBlobHeaderSize) return 0;  // no checksum field to fix up
  std::vector<uint8_t> fixed(data, data + size);
  const uint32_t sum = pfc::etw::blob_checksum(fixed.data(), fixed.size());
  std::memcpy(fixed.data() + pfc::etw::kBlobChecksumOffset, &sum, 4);
  check_decoded(fixed.data(), fixed.size());
  return 0;
}
