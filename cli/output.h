// cli/output.h — the exact JSON Lines formats of `pfc run` and `pfc state`
// (docs/cli.md "pfc run", "pfc state"): compact objects, no spaces, sessions in declaration order.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/explain.h"
#include "io/json_text.h"
#include "pfc/event.h"
#include "runtime/router.h"

namespace pfc::cli {

using io::append_names;
using io::json_quote;

// {"seq":N,"sessions":[...],"stack":[...]} plus ,"why":{...} when `why` is non-null.
// `names` maps session slot → session name. Ends with '\n'.
std::string format_route_line(uint64_t seq, const std::vector<std::string>& names,
                              const RouteResult& result, const std::vector<Rejection>* why);

// {"provider":"P","enabled":true,"level":5,"any":"0x…","all":"0x…","sessions":[...]}\n
std::string format_state_line(std::string_view provider, const CompositeState& state,
                              const std::vector<std::string>& names);

}  // namespace pfc::cli
