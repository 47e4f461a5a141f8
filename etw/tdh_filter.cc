// etw/tdh_filter.cc — TdhCreatePayloadFilter, TdhDeletePayloadFilter,
// TdhAggregatePayloadFilters and TdhCleanupPayloadEventFilterDescriptor. Field names are
// resolved in the TdhStore's manifest schemas, values converted with compiler/convert.h
// (the script checker's rules), and aggregates encoded as payload_blob.h blobs. Handles
// given back by the caller are checked against the sets of live objects before use.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "base/payload_ops.h"
#include "base/quote.h"
#include "compiler/convert.h"
#include "etw/guard.h"
#include "etw/payload_blob.h"
#include "etw/tdh_store.h"
#include "pfc/etw/tdh.h"

namespace pfc::etw {
namespace {

constexpr size_t kMaxTextUnits = MAX_EVENT_FILTER_PAYLOAD_SIZE;  // longer text cannot fit

// What TdhCreatePayloadFilter returns (opaque to the caller).
struct SingleFilter {
  Guid provider;
  BlobFilter filter;
};

struct LiveObjects {
  std::mutex mu;
  std::unordered_set<const void*> filters;  // SingleFilter*
  std::unordered_set<const void*> blobs;    // aggregated blobs (malloc)
};

LiveObjects& live() {
  static LiveObjects* objects = new LiveObjects();  // never destroyed
  return *objects;
}

bool is_live_filter(const void* p) {
  std::lock_guard lock(live().mu);
  return live().filters.count(p) != 0;
}

enum class TextStatus { Ok, TooLong, Invalid };

// A NUL-terminated UTF-16 string as UTF-8 (unpaired surrogates are invalid).
TextStatus utf8_of(const WCHAR* s, std::string& out) {
  const size_t n = u16_length(s, kMaxTextUnits);
  if (n > kMaxTextUnits) return TextStatus::TooLong;
  for (size_t i = 0; i < n; ++i) {
    const bool high = s[i] >= 0xD800 && s[i] <= 0xDBFF;
    if (s[i] >= 0xDC00 && s[i] <= 0xDFFF) return TextStatus::Invalid;
    if (high && !(i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF))
      return TextStatus::Invalid;
    if (high) ++i;
  }
  out = u16_to_utf8(std::u16string(s, n));
  return TextStatus::Ok;
}

// One predicate against event `ev`; ERROR_SUCCESS or the error (message recorded).
uint32_t build_predicate(const PAYLOAD_FILTER_PREDICATE& in, const EventDef& ev, uint32_t index,
                         BlobPredicate& out) {
  const std::string at = "predicate " + std::to_string(index) + ": ";
  if (in.FieldName == nullptr || in.Value == nullptr)
    return tdh_result(ERROR_INVALID_PARAMETER, at + "FieldName and Value must not be NULL");
  std::string name, value;
  if (utf8_of(in.FieldName, name) != TextStatus::Ok)
    return tdh_result(ERROR_INVALID_PARAMETER, at + "FieldName is not valid UTF-16");
  const std::optional<uint32_t> field = ev.find_field(name);
  if (!field) {
    return tdh_result(ERROR_NOT_FOUND,
                      at + "event " + quote_text(ev.name) + " has no field " + quote_text(name));
  }
  const FieldDef& f = ev.fields[*field];
  if (f.count.present())
    return tdh_result(ERROR_INVALID_PARAMETER, at + "field " + quote_text(name) + " is an array");
  if (internal::find_etw_payload_op(in.CompareOp) == nullptr)
    return tdh_result(ERROR_INVALID_PARAMETER,
                      at + "unknown operator " + std::to_string(in.CompareOp));
  switch (utf8_of(in.Value, value)) {
    case TextStatus::TooLong:
      return tdh_result(ERROR_INSUFFICIENT_BUFFER, at + "Value is too long");
    case TextStatus::Invalid:
      return tdh_result(ERROR_INVALID_PARAMETER, at + "Value is not valid UTF-16");
    case TextStatus::Ok: break;
  }
  const auto op = static_cast<PayloadOp>(in.CompareOp);
  internal::ConvertResult v = internal::convert_value_text(f.name, f.type, op, value);
  if (!v) return tdh_result(ERROR_INVALID_PARAMETER, at + v.error());
  out = BlobPredicate{static_cast<uint16_t>(*field), op, f.type, std::move(*v)};
  return ERROR_SUCCESS;
}

uint32_t create_filter(const GUID* guid, const EVENT_DESCRIPTOR* desc, bool match_any, ULONG count,
                       const PAYLOAD_FILTER_PREDICATE* preds, void** out) {
  if (guid == nullptr || desc == nullptr || preds == nullptr || out == nullptr)
    return tdh_result(ERROR_INVALID_PARAMETER, "a required pointer is NULL");
  *out = nullptr;
  if (count == 0 || count > MAX_PAYLOAD_PREDICATES)
    return tdh_result(ERROR_INVALID_PARAMETER, "PayloadPredicateCount must be 1..8");
  const Guid provider = to_pfc(*guid);
  const std::shared_ptr<const ProviderDef> schema = TdhStore::get().find_loaded(provider);
  if (!schema) {
    return tdh_result(ERROR_FILE_NOT_FOUND,
                      "no loaded manifest describes provider " + provider.to_string());
  }
  const EventDef* ev = schema->find_event(desc->Id, desc->Version);
  if (ev == nullptr) {
    return tdh_result(ERROR_NOT_FOUND, "provider " + quote_text(schema->name) +
                                           " has no event with id " + std::to_string(desc->Id) +
                                           " and version " + std::to_string(desc->Version));
  }
  auto single = std::make_unique<SingleFilter>();
  single->provider = provider;
  single->filter.event_id = desc->Id;
  single->filter.event_version = desc->Version;
  single->filter.match_any = match_any;
  single->filter.preds.resize(count);
  for (uint32_t i = 0; i < count; ++i) {
    if (uint32_t rc = build_predicate(preds[i], *ev, i, single->filter.preds[i]);
        rc != ERROR_SUCCESS)
      return rc;
  }
  single->filter.layout = blob_layout(*ev, single->filter.preds);
  if (blob_size(BlobContents{provider, {single->filter}}) > MAX_EVENT_FILTER_PAYLOAD_SIZE)
    return tdh_result(ERROR_INSUFFICIENT_BUFFER, "the filter exceeds 4096 bytes");
  std::lock_guard lock(live().mu);
  live().filters.insert(single.get());
  *out = single.release();
  return tdh_result(ERROR_SUCCESS);
}

uint32_t aggregate(ULONG count, void* const* filters, const BOOLEAN* all_flags,
                   EVENT_FILTER_DESCRIPTOR* desc) {
  if (filters == nullptr || desc == nullptr || count == 0 || count > 0xFFFF)
    return tdh_result(ERROR_INVALID_PARAMETER,
                      "NULL pointer or PayloadFilterCount not in 1..65535");
  BlobContents contents;
  for (ULONG i = 0; i < count; ++i) {
    if (!is_live_filter(filters[i])) {
      return tdh_result(
          ERROR_INVALID_PARAMETER,
          "filter " + std::to_string(i) + " is not a live TdhCreatePayloadFilter result");
    }
    const auto* f = static_cast<const SingleFilter*>(filters[i]);
    if (i == 0) contents.provider = f->provider;
    if (!(f->provider == contents.provider))
      return tdh_result(ERROR_INVALID_PARAMETER, "the filters are for different providers");
    contents.filters.push_back(f->filter);
    contents.filters.back().group_all = all_flags != nullptr && all_flags[i] != 0;
  }
  if (blob_size(contents) > MAX_EVENT_FILTER_PAYLOAD_SIZE)
    return tdh_result(ERROR_INSUFFICIENT_BUFFER, "the aggregated filters exceed 4096 bytes");
  const std::vector<uint8_t> blob = encode_blob(contents);
  void* data = std::malloc(blob.size());
  if (data == nullptr) return tdh_result(ERROR_NOT_ENOUGH_MEMORY, "out of memory");
  UndoOnThrow unallocate([&] { std::free(data); });  // the set's insertion may throw
  std::memcpy(data, blob.data(), blob.size());
  {
    std::lock_guard lock(live().mu);
    live().blobs.insert(data);
  }
  desc->Ptr = reinterpret_cast<uintptr_t>(data);
  desc->Size = static_cast<ULONG>(blob.size());
  desc->Type = EVENT_FILTER_TYPE_PAYLOAD;
  return tdh_result(ERROR_SUCCESS);
}

}  // namespace
}  // namespace pfc::etw

using namespace pfc::etw;

extern "C" {

TDHSTATUS TdhCreatePayloadFilter(LPCGUID ProviderGuid, PCEVENT_DESCRIPTOR EventDescriptor,
                                 BOOLEAN EventMatchANY, ULONG PayloadPredicateCount,
                                 PPAYLOAD_FILTER_PREDICATE PayloadPredicates,
                                 PVOID* PayloadFilter) {
  return guarded(
      [&] {
        return create_filter(ProviderGuid, EventDescriptor, EventMatchANY != 0,
                             PayloadPredicateCount, PayloadPredicates, PayloadFilter);
      },
      fail_tdh);
}

TDHSTATUS TdhDeletePayloadFilter(PVOID* PayloadFilter) {
  return guarded(
      [&]() -> TDHSTATUS {
        if (PayloadFilter == nullptr) return tdh_result(ERROR_INVALID_PARAMETER, "NULL pointer");
        {
          std::lock_guard lock(live().mu);
          if (live().filters.erase(*PayloadFilter) == 0)
            return tdh_result(ERROR_INVALID_PARAMETER, "not a live TdhCreatePayloadFilter result");
        }
        delete static_cast<SingleFilter*>(*PayloadFilter);
        *PayloadFilter = nullptr;
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

TDHSTATUS TdhAggregatePayloadFilters(ULONG PayloadFilterCount, PVOID* PayloadFilterPtrs,
                                     PBOOLEAN EventMatchALLFlags,
                                     PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor) {
  return guarded(
      [&] {
        return aggregate(PayloadFilterCount, PayloadFilterPtrs, EventMatchALLFlags,
                         EventFilterDescriptor);
      },
      fail_tdh);
}

TDHSTATUS TdhCleanupPayloadEventFilterDescriptor(PEVENT_FILTER_DESCRIPTOR EventFilterDescriptor) {
  return guarded(
      [&]() -> TDHSTATUS {
        if (EventFilterDescriptor == nullptr ||
            EventFilterDescriptor->Type != EVENT_FILTER_TYPE_PAYLOAD)
          return tdh_result(ERROR_INVALID_PARAMETER, "not a payload filter descriptor");
        void* data = reinterpret_cast<void*>(static_cast<uintptr_t>(EventFilterDescriptor->Ptr));
        {
          std::lock_guard lock(live().mu);
          if (live().blobs.erase(data) == 0)
            return tdh_result(ERROR_INVALID_PARAMETER, "not a TdhAggregatePayloadFilters result");
        }
        std::free(data);
        *EventFilterDescriptor = EVENT_FILTER_DESCRIPTOR{};
        return tdh_result(ERROR_SUCCESS);
      },
      fail_tdh);
}

}  // extern "C"
