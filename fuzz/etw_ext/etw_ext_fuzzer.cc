// fuzz/etw_blob/etw_ext_fuzzer.cc — the pfc enable extension's validator (etw/enable_ext.h)
// on arbitrary bytes. Each input is decoded as given and with its size and checksum fields
// fixed up (so mutations reach the structural checks behind the header), without and with
// a loaded schema (fuzz/etw_blob/blob_schema.h). What decodes lowers to a routing program
// (every provider process must compile what the mirror accepts), re-encodes, and the
// encoding is stable: encode(decode(encode(x))) == encode(x).
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compiler/lower.h"
#include "etw/enable_ext.h"
#include "etw/payload_blob.h"
#include "etw_blob/blob_schema.h"

namespace {

using namespace pfc;
using namespace pfc::etw;

void check_round_trip(const ExtContents& c) {
  const auto once = encode_ext(c);
  if (!once) std::abort();  // what decoded fits in what encodes
  const auto again = decode_ext(once->data(), once->size(), nullptr);
  if (!again) std::abort();
  const auto twice = encode_ext(*again);
  if (!twice || *twice != *once) std::abort();
}

// One session filtering with the decoded filters, for the provider `schema` (a process
// with the manifest loaded) or, when null, one whose schema defines no event.
void check_lowers(const ExtContents& c, const ProviderDef* schema) {
  ProgramSpec spec;
  if (schema != nullptr) spec.provider = *schema;
  spec.provider.name = "ext";
  spec.provider.guid = c.provider;
  EnableParams params;
  params.level = 5;
  params.payload = c.payload;
  spec.sessions.push_back(SessionEntry{0, std::move(params)});
  if (!lower(spec)) __builtin_trap();
}

void decode(const std::vector<uint8_t>& b) {
  if (auto c = decode_ext(b.data(), b.size(), nullptr)) {
    check_lowers(*c, nullptr);
    check_round_trip(*c);
  }
  const ProviderDef& schema = fuzz::blob_schema();
  if (auto c = decode_ext(b.data(), b.size(), &schema)) check_lowers(*c, &schema);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> b(data, data + size);
  decode(b);
  if (b.size() >= kExtHeaderSize) {
    const auto n = static_cast<uint32_t>(b.size());
    std::memcpy(b.data() + 8, &n, 4);
    const uint32_t sum = blob_checksum(b.data(), b.size());
    std::memcpy(b.data() + 12, &sum, 4);
    decode(b);
  }
  return 0;
}
