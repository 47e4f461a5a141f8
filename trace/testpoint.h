// trace/testpoint.h — crash points for the namespace's crash tests (docs/namespace.md §5).
// PFC_TEST_CRASH_AT=NAME[:N] makes the process SIGKILL itself the N-th time (default 1st)
// it reaches testpoint("NAME"). Unset, a testpoint is one predictable branch.
#pragma once

namespace pfc::trace {

namespace testpoint_detail {
bool armed();  // PFC_TEST_CRASH_AT is set (read once)
void reach(const char* name);
}  // namespace testpoint_detail

inline void testpoint(const char* name) {
  if (testpoint_detail::armed()) [[unlikely]]
    testpoint_detail::reach(name);
}

}  // namespace pfc::trace
