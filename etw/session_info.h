// etw/session_info.h — what the control state says beyond the ETW calls: whether this
// process can use the namespace (PfcGetNamespaceProblem), and the schemas a session's
// enables published (PfcEnumerateTraceSchemas, TDH decoding of a real-time session).
#pragma once

#include <string>
#include <vector>

#include "base/error.h"
#include "pfc/schema.h"

namespace pfc::etw {

// Whether this process can use the namespace (open its directory, read its state): the
// reason when not, e.g. "cannot open trace directory 'D': Permission denied" for another
// user's. That is what an ETW call's ERROR_ACCESS_DENIED means when it fails.
Result<void> namespace_access();
// The provider schemas published with the enables of the session named `name` (pfc enable
// extensions, etw/enable_ext.h), in enable order; empty when there are none or no such
// session. Extensions that do not decode are skipped.
Result<std::vector<ProviderDef>> session_schemas(const std::u16string& name);

}  // namespace pfc::etw
