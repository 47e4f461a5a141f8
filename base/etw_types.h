// base/etw_types.h — conversions between the ETW C API's types (include/pfc/etw) and pfc's
// C++ types, for every layer that speaks both (etw/, the pfc command): GUID ↔ Guid,
// EVENT_DESCRIPTOR ↔ EventDescriptor, random GUIDs and the text of an ETW error.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>

#include "pfc/etw/evntprov.h"
#include "pfc/guid.h"
#include "pfc/schema.h"

namespace pfc {

static_assert(sizeof(Guid) == 16 && sizeof(GUID) == 16);

inline Guid to_pfc(const GUID& g) {
  Guid out;
  out.data1 = g.Data1;
  out.data2 = g.Data2;
  out.data3 = g.Data3;
  std::memcpy(out.data4.data(), g.Data4, 8);
  return out;
}

inline GUID to_win(const Guid& g) {
  GUID out;
  out.Data1 = g.data1;
  out.Data2 = g.data2;
  out.Data3 = g.data3;
  std::memcpy(out.Data4, g.data4.data(), 8);
  return out;
}

// The same 16 bytes field for field: one copy (the EventWrite path).
inline EventDescriptor to_pfc(const EVENT_DESCRIPTOR& d) {
  static_assert(sizeof(EventDescriptor) == sizeof(EVENT_DESCRIPTOR) &&
                offsetof(EventDescriptor, level) == offsetof(EVENT_DESCRIPTOR, Level) &&
                offsetof(EventDescriptor, task) == offsetof(EVENT_DESCRIPTOR, Task) &&
                offsetof(EventDescriptor, keyword) == offsetof(EVENT_DESCRIPTOR, Keyword));
  EventDescriptor out;
  std::memcpy(static_cast<void*>(&out), &d, sizeof out);  // trivially copyable
  return out;
}

inline EVENT_DESCRIPTOR to_win(const EventDescriptor& d) {
  EVENT_DESCRIPTOR out;
  out.Id = d.id;
  out.Version = d.version;
  out.Channel = d.channel;
  out.Level = d.level;
  out.Opcode = d.opcode;
  out.Task = d.task;
  out.Keyword = d.keyword;
  return out;
}

// A random (version 4, RFC 4122 variant) GUID.
GUID random_guid();

// What an ETW error code means, for messages: "No space left on device" for
// ERROR_DISK_FULL, else "error N".
std::string etw_error_text(ULONG rc);

}  // namespace pfc
