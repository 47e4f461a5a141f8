// etw/provider_info.cc — EventSetInformation (include/pfc/etw/evntprov.h, docs/etw.md
// "Provider traits"): a registration's provider traits, which every later event of it
// carries as its EVENT_HEADER_EXT_TYPE_PROV_TRAITS item, and whether its data
// descriptors' Type counts.
#include <cstring>
#include <memory>
#include <mutex>

#include "base/le.h"
#include "etw/guard.h"
#include "etw/state.h"
#include "pfc/etw/evntcons.h"
#include "runtime/tlg.h"

namespace pfc::etw {
namespace {

// Whether the `size` bytes at `p` are a traits blob EventProviderSetTraits accepts: the
// layout runtime/tlg.h's parse_provider checks (a size word equal to `size`, a
// NUL-terminated UTF-8 name, traits of at least 3 bytes each inside the blob), every group
// trait (type 1) holding exactly a GUID. Reads no byte outside the `size`.
bool traits_ok(const uint8_t* p, ULONG size) {
  if (size < 3 || size > 0xFFFF || !tlg::parse_provider(p, size)) return false;
  // parse_provider found the name's NUL and every trait inside `size`.
  size_t at = 2 + std::strlen(reinterpret_cast<const char*>(p + 2)) + 1;
  while (at < size) {
    const uint16_t n = load_le<uint16_t>(p + at);
    if (p[at + 2] == EtwProviderTraitTypeGroup && n != 3 + sizeof(GUID)) return false;
    at += n;
  }
  return true;
}

// EventProviderSetTraits on `rec` (control_mu held): a copy of the blob, published once.
ULONG set_traits(RegRecord& rec, const void* info, ULONG size) {
  const auto* p = static_cast<const uint8_t*>(info);
  if (p == nullptr || !traits_ok(p, size)) return ERROR_INVALID_PARAMETER;
  if (rec.traits.load() != nullptr) return ERROR_ALREADY_EXISTS;  // once per registration
  auto copy = std::make_unique_for_overwrite<uint8_t[]>(size);
  std::memcpy(copy.get(), p, size);
  rec.traits_storage = std::move(copy);
  rec.descriptor_types.store(true);
  rec.traits.store(rec.traits_storage.get(), std::memory_order_release);
  return ERROR_SUCCESS;
}

// EventProviderUseDescriptorType on `rec`: a BOOLEAN.
ULONG use_descriptor_type(RegRecord& rec, const void* info, ULONG size) {
  if (info == nullptr || size != sizeof(BOOLEAN)) return ERROR_INVALID_PARAMETER;
  rec.descriptor_types.store(*static_cast<const BOOLEAN*>(info) != FALSE);
  return ERROR_SUCCESS;
}

ULONG set_information(REGHANDLE handle, EVENT_INFO_CLASS cls, const void* info, ULONG size) {
  // EventProviderBinaryTrackInfo names the binary holding mc.exe resources, which pfc's
  // binaries do not hold; EventProviderSetReserved1 is not used.
  if (cls != EventProviderSetTraits && cls != EventProviderUseDescriptorType)
    return ERROR_NOT_SUPPORTED;
  if (info == nullptr && size != 0) return ERROR_INVALID_PARAMETER;
  Runtime& rt = Runtime::get();
  std::lock_guard<std::mutex> lock(rt.control_mu);
  RegRecord* rec = rt.find(handle);
  if (rec == nullptr || rec->legacy) return ERROR_INVALID_PARAMETER;
  return cls == EventProviderSetTraits ? set_traits(*rec, info, size)
                                       : use_descriptor_type(*rec, info, size);
}

}  // namespace
}  // namespace pfc::etw

extern "C" ULONG EventSetInformation(REGHANDLE RegHandle, EVENT_INFO_CLASS InformationClass,
                                     PVOID EventInformation, ULONG InformationLength) {
  return pfc::etw::guarded([&] {
    return pfc::etw::set_information(RegHandle, InformationClass, EventInformation,
                                     InformationLength);
  });
}
