// etw/provider.cc — the provider side of the ETW-compatible API: EventRegister /
// EventUnregister, the EventEnabled fast checks, EventWrite* (payload assembly, header
// fields, EventWriteEx exclusion, routing through the router into session queues) and the
// thread's activity ID.
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>

#include "base/tls.h"
#include "etw/guard.h"
#include "etw/state.h"
#include "etw/tdh_store.h"
#include "etw/tlg_write.h"
#include "runtime/tlg.h"

namespace pfc::etw {
namespace {

PFC_TLS_HOT thread_local GUID tls_activity{};

// The executable's path (scope filters read its final component): set by the first
// registration, before its handle is published, and constant afterwards, so the event path
// reads it with no guard.
constinit StrRef exe_ref{};

// Sets exe_ref once; the caller holds control_mu.
void load_exe_path() {
  if (exe_ref.data != nullptr) return;
  static const std::string path = [] {
    char buf[4096];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  }();
  exe_ref = StrRef::of(path);
}

}  // namespace

// Registers `rec` with the router; shared by EventRegister and RegisterTraceGuidsW. Runs
// the pre-enable callbacks before returning.
ULONG register_record(const std::shared_ptr<RegRecord>& rec, uint64_t* out) {
  Runtime& rt = Runtime::get();
  rt.listen();  // from now on this process applies every namespace change
  rt.sync();    // and starts from the current one (pre-enabled sessions)
  uint64_t seq = 0;
  {
    std::lock_guard<std::mutex> lock(rt.control_mu);
    load_exe_path();
    if (!rt.reserve(rec)) return ERROR_NOT_ENOUGH_MEMORY;
    UndoOnThrow unreserve([&] { rec->dead.store(true); });  // as a refused registration
    // The manifest schema of the GUID (TdhLoadManifest*) lets payload filters route.
    ProviderDef def;
    if (auto schema = TdhStore::get().find_loaded(rec->guid)) def = *schema;
    if (def.name.empty()) def.name = rec->guid.to_string();
    def.guid = rec->guid;
    def.legacy = rec->legacy;
    if (def.legacy) def.events.clear();
    // A modern registration's slot mirrors its enable state for the inline EventEnabled.
    const EnableMirror mirror =
        def.legacy
            ? EnableMirror{}
            : EnableMirror{&enable_table.Enabled[slot_of(rec->handle)], &enable_table.EnabledSlots};
    auto handle = rt.router().register_provider(def, rt.make_callback(rec), mirror);
    if (!handle) {
      rec->dead.store(true);
      return ERROR_NOT_ENOUGH_MEMORY;
    }
    rec->provider = *handle;
    rt.publish(rec.get());
    *out = rec->handle;
    seq = rt.dispatcher.posted();
  }
  rt.dispatcher.wait(seq, INFINITE);
  return ERROR_SUCCESS;
}

// Removes a registration; afterwards its callback never runs again.
ULONG unregister_record(uint64_t handle, bool legacy) {
  Runtime& rt = Runtime::get();
  std::shared_ptr<RegRecord> rec;
  {
    std::lock_guard<std::mutex> lock(rt.control_mu);
    RegRecord* found = rt.find(handle);
    if (found == nullptr || found->legacy != legacy) return ERROR_INVALID_HANDLE;
    // The router first: when it throws (etw/guard.h), the handle stays valid to retry.
    rt.router().unregister_provider(found->provider);
    rec = rt.take(handle);
  }
  rt.dispatcher.quiesce(rec.get());
  return ERROR_SUCCESS;
}

namespace {

ULONG register_modern(const GUID& id, PENABLECALLBACK cb, void* ctx, REGHANDLE* out) {
  auto rec = std::make_shared<RegRecord>();
  rec->guid = to_pfc(id);
  rec->callback = cb;
  rec->context = ctx;
  return register_record(rec, out);
}

// The largest payload of one event: its record, header included, fits in 64 KiB.
constexpr uint64_t kMaxPayload = 0xFFFF - sizeof(EVENT_HEADER);

const uint8_t* bytes_of(const EVENT_DATA_DESCRIPTOR& d) {
  return reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(d.Ptr));
}

// The largest descriptor copy_descriptors copies itself (two 16-byte moves at most).
constexpr uint64_t kInlineCopy = 32;
// The room of the most descriptors of kInlineCopy bytes an event may have.
constexpr uint64_t kInlineRoom = kInlineCopy * MAX_EVENT_DATA_DESCRIPTORS;
static_assert(kInlineRoom <= kMaxPayload);

// Copies n <= kInlineCopy bytes with at most two loads and two stores (the first and the
// last bytes of sizeof(T) each, overlapping): no call, so the copying loop needs no frame.
inline void copy_small(uint8_t* dst, const uint8_t* src, uint64_t n) {
  const auto two = [&]<class T>(T) {
    T head;
    T tail;
    std::memcpy(&head, src, sizeof head);
    std::memcpy(&tail, src + n - sizeof tail, sizeof tail);
    std::memcpy(dst, &head, sizeof head);
    std::memcpy(dst + n - sizeof tail, &tail, sizeof tail);
  };
  if (n > 8) {
    if (n > 16) two(__uint128_t{});
    else two(uint64_t{});
  } else if (n >= 4) {
    two(uint32_t{});
  } else if (n >= 2) {
    two(uint16_t{});
  } else if (n == 1) {
    dst[0] = src[0];
  }
}

// The per-thread payload buffer: `data` and `room` (its size) as a plain thread-local for
// the copy, the allocation that owns them behind it (grow_payload_buffer). The room only
// grows, so a thread's events of one shape resize nothing, and stays at most kMaxPayload,
// so a payload that fits it also fits the limit. Once allocated it has room for
// kInlineRoom bytes at least: copy_descriptors checks the room once per event, not once
// per descriptor. The contents are scratch.
struct PayloadBuffer {
  uint8_t* data = nullptr;
  uint64_t room = 0;
};
PFC_TLS_HOT constinit thread_local PayloadBuffer payload_buffer{};
// Set when the thread's owner of the buffer is destroyed (thread exit): events written
// after that by other thread-locals' destructors get buffers that are never freed.
PFC_TLS_HOT constinit thread_local bool payload_owner_gone = false;

// Replaces the buffer with one of room for `total` (<= kMaxPayload) bytes. Throws
// std::bad_alloc (the guard's ERROR_NOT_ENOUGH_MEMORY) with the old buffer in place.
void grow_payload_buffer(uint64_t total) {
  struct Owner {
    std::unique_ptr<uint8_t[]> bytes;
    ~Owner() {
      payload_buffer = PayloadBuffer{};
      payload_owner_gone = true;
    }
  };
  const uint64_t room =
      std::min(std::max({total, 2 * payload_buffer.room, kInlineRoom}), kMaxPayload);
  auto bytes = std::make_unique_for_overwrite<uint8_t[]>(static_cast<size_t>(room));
  payload_buffer = PayloadBuffer{bytes.get(), room};
  if (payload_owner_gone) {
    (void)bytes.release();  // the thread is exiting: kept until the process ends
    return;
  }
  thread_local Owner owner;
  owner.bytes = std::move(bytes);
}

// assemble's answer when a descriptor has a type in its `types` mask (TraceLogging
// metadata, etw/tlg_write.h): not an error code, nothing assembled.
constexpr ULONG kTypedDescriptor = ~ULONG{0};

// The type byte of a descriptor (EVENT_DATA_DESCRIPTOR_TYPE_*) where `types` selects it.
inline uint32_t typed(const EVENT_DATA_DESCRIPTOR& d, uint32_t types) { return d.Reserved & types; }

// Copies the count >= 2 descriptors into buf in one pass when the room holds
// count * kInlineCopy bytes, while each is at most kInlineCopy bytes and none is typed in
// `types`; false (nothing valid copied) when the room is short, or at the first descriptor
// that is not, or that has bytes but no pointer: assemble_slow decides then.
inline bool copy_descriptors(ULONG count, const EVENT_DATA_DESCRIPTOR* data,
                             const PayloadBuffer& buf, uint64_t* size, uint32_t types) {
  if (count > buf.room / kInlineCopy) [[unlikely]]
    return false;
  uint8_t* dst = buf.data;  // a moving pointer: no offset and base held across the loop
  const EVENT_DATA_DESCRIPTOR* d = data;
  do {  // count >= 2 (assemble): no test for an empty list
    const uint64_t n = d->Size;
    const uint8_t* src = bytes_of(*d);
    if (n > kInlineCopy || (src == nullptr && n != 0) || typed(*d, types) != 0) [[unlikely]]
      return false;
    copy_small(dst, src, n);
    dst += n;
  } while (++d != data + count);
  *size = static_cast<uint64_t>(dst - buf.data);
  return true;
}

// assemble's path when copy_descriptors declined: kTypedDescriptor when a descriptor is
// typed in `types`, else the sizes summed and checked (nothing is copied from a refused
// list), the buffer grown, every descriptor copied with memcpy.
__attribute__((noinline)) ULONG assemble_slow(ULONG count, const EVENT_DATA_DESCRIPTOR* data,
                                              const uint8_t** out, uint64_t* size, uint32_t types) {
  for (ULONG i = 0; i < count; ++i)
    if (typed(data[i], types) != 0) return kTypedDescriptor;
  uint64_t total = 0;  // at most MAX_EVENT_DATA_DESCRIPTORS * 2^32: no overflow
  for (ULONG i = 0; i < count; ++i) {
    if (data[i].Size != 0 && data[i].Ptr == 0) return ERROR_INVALID_PARAMETER;
    total += data[i].Size;
  }
  if (total > kMaxPayload) return ERROR_ARITHMETIC_OVERFLOW;
  if (total > payload_buffer.room) grow_payload_buffer(total);
  const PayloadBuffer buf = payload_buffer;
  uint64_t off = 0;
  for (ULONG i = 0; i < count; ++i) {
    // Read again: a caller changing its descriptors meanwhile still cannot overrun buf.
    const uint64_t n = std::min(uint64_t{data[i].Size}, buf.room - off);
    if (n != 0) std::memcpy(buf.data + off, bytes_of(data[i]), n);
    off += n;
  }
  *out = buf.data;
  *size = off;
  return ERROR_SUCCESS;
}

// The payload of EventWrite*: the data descriptors concatenated into the per-thread
// buffer, or, for one descriptor, the caller's bytes themselves (no copy). Sets *out/*size.
// Descriptors of size 0 take no bytes and may have no pointer. kTypedDescriptor before
// anything else when one has a type in `types` (the check rides on the copy's loop: no pass
// of its own), else ERROR_INVALID_PARAMETER when one has bytes but no pointer, else
// ERROR_ARITHMETIC_OVERFLOW when their total exceeds kMaxPayload.
[[gnu::always_inline]] inline ULONG assemble(ULONG count, const EVENT_DATA_DESCRIPTOR* data,
                                             const uint8_t** out, uint64_t* size, uint32_t types) {
  if (count <= 1) {
    if (count == 0) {  // no bytes; a pointer that is not null all the same
      static constexpr uint8_t kNoBytes = 0;
      *out = &kNoBytes;
      *size = 0;
      return ERROR_SUCCESS;
    }
    if (typed(data[0], types) != 0) [[unlikely]]
      return kTypedDescriptor;
    if ((data[0].Size != 0 && data[0].Ptr == 0) || data[0].Size > kMaxPayload)
      return data[0].Ptr == 0 ? ERROR_INVALID_PARAMETER : ERROR_ARITHMETIC_OVERFLOW;
    *out = bytes_of(data[0]);
    *size = data[0].Size;
    return ERROR_SUCCESS;
  }
  const PayloadBuffer buf = payload_buffer;
  if (!copy_descriptors(count, data, buf, size, types)) [[unlikely]] {
    // Its own out-parameters: the caller's stay in registers on the path above.
    const uint8_t* slow_out = nullptr;
    uint64_t slow_size = 0;
    const ULONG rc = assemble_slow(count, data, &slow_out, &slow_size, types);
    *out = slow_out;
    *size = slow_size;
    return rc;
  }
  *out = buf.data;
  return ERROR_SUCCESS;
}

// The arguments of EventWriteTransfer, EventWriteEx and EventWriteString beyond EventWrite's.
struct WriteExtra {
  uint64_t filter = 0;
  uint32_t flags = 0;
  const GUID* activity = nullptr;
  const GUID* related = nullptr;
  uint16_t header_flags = 0;  // EVENT_HEADER_FLAG_STRING_ONLY for EventWriteString
};

// EventWrite's extra arguments (in static storage: EventWrite's quiet path has no frame).
constexpr WriteExtra kNoExtra{};

// The arguments of one EventWrite* call. A local of write_event whose address never escapes
// (build_context gets copies of what it reads), so its fields stay in registers and
// EventWrite's constant ones fold away.
struct WriteArgs {
  REGHANDLE handle;
  const EVENT_DESCRIPTOR* desc;
  uint64_t filter;
  uint32_t flags;
  const GUID* activity;
  const GUID* related;
  ULONG count;
  const EVENT_DATA_DESCRIPTOR* data;
  uint16_t header_flags;  // EVENT_HEADER_FLAG_STRING_ONLY for EventWriteString
  void* caller;
};

// True when no session enables the registration of `handle`'s slot and `handle` is that
// slot's live modern registration (quiet_write).
inline bool quiet_handle(REGHANDLE handle) noexcept {
  const uint32_t slot = slot_of(handle);
  return std::atomic_ref<uint64_t>(enable_table.Enabled[slot]).load(std::memory_order_relaxed) ==
             0 &&
         std::atomic_ref<uint64_t>(slot_handles[slot]).load(std::memory_order_relaxed) == handle;
}

// Whether ETW accepts the arguments of EventWrite*: a descriptor, and data for a nonzero
// count of at most MAX_EVENT_DATA_DESCRIPTORS (else ERROR_INVALID_PARAMETER).
inline bool args_ok(const EVENT_DESCRIPTOR* desc, ULONG count,
                    const EVENT_DATA_DESCRIPTOR* data) noexcept {
  return desc != nullptr && (data != nullptr ? count <= MAX_EVENT_DATA_DESCRIPTORS : count == 0);
}

// EventWrite*'s answer when no session enables the registration (docs/etw.md "Enable
// state"): true when no session enables the registration of `handle`'s slot, `handle` is
// that slot's live modern registration and the arguments are ones ETW accepts —
// ERROR_SUCCESS, nothing copied. Anything else (enabled, bad handle, bad arguments) takes
// write_event. Relaxed loads suffice: a caller holding a live handle got it from
// EventRegister, which stored both words before it returned.
inline bool quiet_write(REGHANDLE handle, const EVENT_DESCRIPTOR* desc, ULONG count,
                        const EVENT_DATA_DESCRIPTOR* data) noexcept {
  return quiet_handle(handle) && args_ok(desc, count, data);
}

// What build_context reads: the call's arguments it needs and its registration.
struct Pending {
  const GUID* activity;
  const GUID* related;
  void* caller;
  const RegRecord* rec;
  uint16_t flags;  // added to the header flags (the call's, tlg::kRecordFlag)
};

// The WriteContext of an EventWrite* call (WriteSource's build; `arg` is a Pending).
void build_context(WriteContext& ctx, const void* arg) {
  const auto& p = *static_cast<const Pending*>(arg);
  ctx.flags = static_cast<uint16_t>(EVENT_HEADER_FLAG_64_BIT_HEADER | p.flags);
  ctx.provider = p.rec->guid;
  ctx.activity = to_pfc(p.activity != nullptr ? *p.activity : tls_activity);
  ctx.related = p.related;
  ctx.caller = p.caller;
  // The registration's traits (EventSetInformation) ride behind the payload unless the
  // event carries its own TraceLogging blobs.
  if ((p.flags & tlg::kRecordFlag) == 0) ctx.traits = p.rec->traits.load(std::memory_order_acquire);
}

// The EventView of an EventWrite* call: every field stored once, the thread ids as one
// 8-byte word (pid and tid are adjacent in both, include/pfc/event.h). Inline: this runs for
// every enabled event, also for the ones the sessions' filters reject.
[[gnu::always_inline]] inline EventView make_view(const EVENT_DESCRIPTOR& desc,
                                                  const uint8_t* payload, uint64_t payload_size,
                                                  ThreadIds ids) {
  static_assert(sizeof ids == 8 && offsetof(ThreadIds, tid) == 4 &&
                offsetof(EventView, tid) == offsetof(EventView, pid) + 4);
  EventView view{.desc = to_pfc(desc),
                 .payload = payload,
                 .payload_size = payload_size,
                 .exe = exe_ref,
                 .package_id = StrRef{},
                 .app_id = StrRef{},
                 .name = StrRef{}};
  std::memcpy(&view.pid, &ids, sizeof ids);
  return view;
}

// view_tlg's answer: an error code, and the flags its records add to their header's.
struct TlgView {
  ULONG rc;
  uint16_t flags;
};

// The view of an event some data descriptor of which has a type byte. When the
// registration's descriptor types count (EventSetInformation), TraceLogging metadata
// descriptors are taken out of the payload and appended behind it (etw/tlg_write.h); the
// flags are tlg::kRecordFlag when the event has its metadata. Otherwise every descriptor is
// payload, as Windows reads them. Out of line: its TlgWrite (a copy of the descriptor list)
// stays out of the plain path's frame.
__attribute__((noinline)) TlgView view_tlg(const EVENT_DESCRIPTOR& desc, ULONG count,
                                           const EVENT_DATA_DESCRIPTOR* data, const RegRecord& rec,
                                           EventView* view) {
  TlgWrite tlg;
  if (rec.descriptor_types.load(std::memory_order_relaxed)) {
    if (const ULONG rc = tlg.take(count, data); rc != ERROR_SUCCESS) return {rc, 0};
    count = tlg.count();
    data = tlg.data();
  }
  const uint8_t* payload = nullptr;
  uint64_t payload_size = 0;
  // The descriptors left are payload whatever their type byte.
  if (const ULONG rc = assemble(count, data, &payload, &payload_size, 0); rc != ERROR_SUCCESS)
    return {rc, 0};
  *view = make_view(desc, payload, payload_size, current_ids());
  if (!tlg.present()) return {ERROR_SUCCESS, 0};
  return {tlg.finish(*view, kMaxPayload), tlg::kRecordFlag};
}

// kChecked: the caller has found args_ok true.
template <bool kChecked>
[[gnu::always_inline]] inline ULONG write_unguarded(const WriteArgs& a) {
  Runtime& rt = Runtime::get();
  RegRecord* rec = rt.find(a.handle);
  if (rec == nullptr || rec->legacy) return ERROR_INVALID_HANDLE;
  if (!kChecked && !args_ok(a.desc, a.count, a.data)) return ERROR_INVALID_PARAMETER;
  if (!rec->provider->enabled(a.desc->Level, a.desc->Keyword)) return ERROR_SUCCESS;
  const uint8_t* payload = nullptr;
  uint64_t payload_size = 0;
  // A descriptor with any type byte (TraceLogging metadata among them) takes view_tlg.
  const ULONG rc = assemble(a.count, a.data, &payload, &payload_size, 0xFF);
  if (rc != ERROR_SUCCESS && rc != kTypedDescriptor) return rc;
  EventView view =
      rc == ERROR_SUCCESS ? make_view(*a.desc, payload, payload_size, current_ids()) : EventView{};
  uint16_t flags = a.header_flags;  // added to the records' header flags
  if (rc == kTypedDescriptor) [[unlikely]] {
    const TlgView tlg = view_tlg(*a.desc, a.count, a.data, *rec, &view);
    if (tlg.rc != ERROR_SUCCESS) return tlg.rc;
    flags |= tlg.flags;
  }

  uint64_t exclude = a.filter;
  if ((a.flags & EVENT_WRITE_FLAG_INPRIVATE) != 0) exclude |= rec->inprivate.load();

  // The WriteContext is built when a session takes the event (build_context), not before.
  const Pending pending{a.activity, a.related, a.caller, rec, flags};
  WriteSource source(build_context, &pending);
  const WriteScope scope(&source);
  rt.router().write(rec->provider, view, exclude);
  return ERROR_SUCCESS;
}

// Not inlined into EventWrite*: their quiet path then needs no stack frame. The guard
// (etw/guard.h) is here, behind the quiet path, for the same reason. Flattened: the guard
// and write_unguarded are one function, one frame. The arguments come in registers, so
// EventWrite's call is a jump. kPlain: EventWrite's call, whose arguments args_ok accepted
// and whose `extra` is all zero (not read); otherwise `extra` is read and the arguments
// are checked.
template <bool kPlain>
__attribute__((noinline, flatten)) ULONG write_event(REGHANDLE handle, const EVENT_DESCRIPTOR* desc,
                                                     ULONG count, const EVENT_DATA_DESCRIPTOR* data,
                                                     void* caller, const WriteExtra* extra) {
  const WriteExtra e = kPlain ? WriteExtra{} : *extra;
  const WriteArgs a{handle,    desc,  e.filter, e.flags,        e.activity,
                    e.related, count, data,     e.header_flags, caller};
  return guarded([&]() __attribute__((always_inline)) { return write_unguarded<kPlain>(a); });
}

}  // namespace
}  // namespace pfc::etw

using pfc::etw::fail_false;
using pfc::etw::guarded;
using pfc::etw::Runtime;
using pfc::etw::WriteExtra;

extern "C" {

ULONG EventRegister(LPCGUID ProviderId, PENABLECALLBACK EnableCallback, PVOID CallbackContext,
                    PREGHANDLE RegHandle) {
  return guarded([&]() -> ULONG {
    if (RegHandle == nullptr) return ERROR_INVALID_PARAMETER;
    *RegHandle = 0;
    if (ProviderId == nullptr) return ERROR_INVALID_PARAMETER;
    return pfc::etw::register_modern(*ProviderId, EnableCallback, CallbackContext, RegHandle);
  });
}

ULONG EventUnregister(REGHANDLE RegHandle) {
  return guarded([&] { return pfc::etw::unregister_record(RegHandle, false); });
}

// The exported functions behind pfc/etw/evntprov.h's inline macros of the same names.
BOOLEAN(EventEnabled)(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor) {
  return guarded(
      [&]() -> BOOLEAN {
        if (EventDescriptor == nullptr) return FALSE;
        const pfc::etw::RegRecord* rec = Runtime::get().find(RegHandle);
        if (rec == nullptr || rec->legacy) return FALSE;
        return rec->provider->enabled(EventDescriptor->Level, EventDescriptor->Keyword) ? TRUE
                                                                                        : FALSE;
      },
      fail_false);
}

BOOLEAN(EventProviderEnabled)(REGHANDLE RegHandle, UCHAR Level, ULONGLONG Keyword) {
  return guarded(
      [&]() -> BOOLEAN {
        const pfc::etw::RegRecord* rec = Runtime::get().find(RegHandle);
        if (rec == nullptr || rec->legacy) return FALSE;
        return rec->provider->enabled(Level, Keyword) ? TRUE : FALSE;
      },
      fail_false);
}

__attribute__((noinline)) ULONG EventWrite(REGHANDLE RegHandle, PCEVENT_DESCRIPTOR EventDescriptor,
                                           ULONG UserDataCount, PEVENT_DATA_DESCRIPTOR UserData) {
  // quiet_write's checks in the order that lets an enabled event skip the argument checks.
  if (!pfc::etw::args_ok(EventDescriptor, UserDataCount, UserData)) [[unlikely]] {
    return pfc::etw::write_event<false>(RegHandle, EventDescriptor, UserDataCount, UserData,
                                        __builtin_return_address(0), &pfc::etw::kNoExtra);
  }
  if (pfc::etw::quiet_handle(RegHandle)) return ERROR_SUCCESS;
  return pfc::etw::write_event<true>(RegHandle, EventDescriptor, UserDataCount, UserData,
                                     __builtin_return_address(0), nullptr);
}

__attribute__((noinline)) ULONG EventWriteTransfer(REGHANDLE RegHandle,
                                                   PCEVENT_DESCRIPTOR EventDescriptor,
                                                   LPCGUID ActivityId, LPCGUID RelatedActivityId,
                                                   ULONG UserDataCount,
                                                   PEVENT_DATA_DESCRIPTOR UserData) {
  if (pfc::etw::quiet_write(RegHandle, EventDescriptor, UserDataCount, UserData))
    return ERROR_SUCCESS;
  const WriteExtra extra{.activity = ActivityId, .related = RelatedActivityId};
  return pfc::etw::write_event<false>(RegHandle, EventDescriptor, UserDataCount, UserData,
                                      __builtin_return_address(0), &extra);
}

__attribute__((noinline)) ULONG EventWriteEx(REGHANDLE RegHandle,
                                             PCEVENT_DESCRIPTOR EventDescriptor, ULONG64 Filter,
                                             ULONG Flags, LPCGUID ActivityId,
                                             LPCGUID RelatedActivityId, ULONG UserDataCount,
                                             PEVENT_DATA_DESCRIPTOR UserData) {
  if (pfc::etw::quiet_write(RegHandle, EventDescriptor, UserDataCount, UserData))
    return ERROR_SUCCESS;
  const WriteExtra extra{
      .filter = Filter, .flags = Flags, .activity = ActivityId, .related = RelatedActivityId};
  return pfc::etw::write_event<false>(RegHandle, EventDescriptor, UserDataCount, UserData,
                                      __builtin_return_address(0), &extra);
}

__attribute__((noinline)) ULONG EventWriteString(REGHANDLE RegHandle, UCHAR Level,
                                                 ULONGLONG Keyword, PCWSTR String) {
  if (String == nullptr) return ERROR_INVALID_PARAMETER;
  EVENT_DESCRIPTOR desc{};
  desc.Level = Level;
  desc.Keyword = Keyword;
  const size_t units = pfc::etw::u16_length(String, 0x7FFF);
  if (units > 0x7FFE) return ERROR_ARITHMETIC_OVERFLOW;
  EVENT_DATA_DESCRIPTOR data;
  EventDataDescCreate(&data, String, static_cast<ULONG>((units + 1) * sizeof(WCHAR)));
  const WriteExtra extra{.header_flags = EVENT_HEADER_FLAG_STRING_ONLY};
  return pfc::etw::write_event<false>(RegHandle, &desc, 1, &data, __builtin_return_address(0),
                                      &extra);
}

ULONG EventActivityIdControl(ULONG ControlCode, LPGUID ActivityId) {
  return guarded([&]() -> ULONG {
    using pfc::etw::tls_activity;
    if (ActivityId == nullptr) return ERROR_INVALID_PARAMETER;
    const GUID previous = tls_activity;
    switch (ControlCode) {
      case EVENT_ACTIVITY_CTRL_GET_ID: *ActivityId = previous; return ERROR_SUCCESS;
      case EVENT_ACTIVITY_CTRL_SET_ID: tls_activity = *ActivityId; return ERROR_SUCCESS;
      case EVENT_ACTIVITY_CTRL_CREATE_ID:
        *ActivityId = pfc::etw::random_guid();
        return ERROR_SUCCESS;
      case EVENT_ACTIVITY_CTRL_GET_SET_ID:
        tls_activity = *ActivityId;
        *ActivityId = previous;
        return ERROR_SUCCESS;
      case EVENT_ACTIVITY_CTRL_CREATE_SET_ID:
        tls_activity = pfc::etw::random_guid();
        *ActivityId = previous;
        return ERROR_SUCCESS;
      default: return ERROR_INVALID_PARAMETER;
    }
  });
}

}  // extern "C"
