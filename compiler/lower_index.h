// compiler/lower_index.h — internal to the lowering: predicate indexing of one payload
// region (docs/ir.md §4 "Predicate indexing"). Sessions whose filters for the region's key
// come to an AND (or an OR) of terms, where the terms on an integer field that other
// sessions test too are interval sets, get those terms from one mask.range per field for
// all of them; their other terms are lowered per session as before.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "compiler/lower_mask.h"
#include "compiler/lower_payload.h"

namespace pfc::internal {

// One session's payload filters for the region's key.
struct KeyFilters {
  uint32_t slot = 0;
  std::vector<const PayloadFilter*> filters;
};

// The region's results: a boolean per session lowered one by one (PayloadLowering::
// session_filters), and one mask holding the results of the indexed sessions (bit = slot;
// the bits of every other session are 0).
struct RegionFilters {
  std::vector<std::pair<uint32_t, ir::Reg>> bools;
  MaskVal indexed = MaskVal::constant(0);
};

// Lowers every session's filters of one key inside its region (between begin_region and
// end_region of its guard). With `indexing` false, or when no integer field is tested by
// two sessions whose filters have that shape, every session is lowered one by one, so a
// one-session program is the same as without indexing.
Result<RegionFilters> lower_key_filters(IrBuilder& b, MaskLowering& ml, PayloadLowering& payload,
                                        const EventDef& event,
                                        const std::vector<KeyFilters>& sessions, bool indexing);

}  // namespace pfc::internal
