// io/event_fields_simple.h — the fast path of encode_json_fields (io/event_fields.h) for
// the common shape of event: scalar integer, string and GUID fields without counts or
// lengths, given in declaration order (as pfc writes them) as JSON integers, strings and
// booleans. Encodes straight from the JSON
// values into the payload, without the general path's FieldValue tree (runtime/encode.h).
#pragma once

#include <cstdint>
#include <vector>

#include <simdjson.h>

#include "pfc/schema.h"

namespace pfc::io {

// Encodes `fields` for `event` into `out` (replacing its contents) and returns true when the
// event and the values are of the simple kind and valid; then `out` is byte for byte what
// encode_payload gives. Returns false otherwise — any other type or shape, a value of
// another JSON kind, out of range, fields in another order, an unknown, repeated or missing
// name, an embedded NUL —
// and the caller runs the general path, which encodes the value or names the problem.
bool encode_simple_fields(const EventDef& event, simdjson::dom::object fields,
                          std::vector<uint8_t>& out);

}  // namespace pfc::io
