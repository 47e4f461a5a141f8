// trace/testpoint.h — crash points for the namespace's crash tests (docs/namespace.md §5).
// Compiled in only where PFC_TESTPOINTS is defined: in pfc_trace_testpoints and
// pfc_etw_testpoints, which only the crash tests' programs link; everywhere else (the
// installed libraries, the pfc CLI) testpoint() is empty and costs nothing. Compiled in,
// each testpoint is an out-of-line call (armed()) plus a branch on every pass, also on the
// reserve path of every record; PFC_TEST_CRASH_AT=NAME[:N] then makes the process SIGKILL
// itself the N-th time (default 1st) it reaches testpoint("NAME").
#pragma once

namespace pfc::trace {

#ifdef PFC_TESTPOINTS
namespace testpoint_detail {
bool armed();  // PFC_TEST_CRASH_AT is set (read once)
void reach(const char* name);
}  // namespace testpoint_detail

inline void testpoint(const char* name) {
  if (testpoint_detail::armed()) [[unlikely]]
    testpoint_detail::reach(name);
}
#else
inline void testpoint(const char*) {}
#endif

}  // namespace pfc::trace
