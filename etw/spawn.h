// etw/spawn.h — starting the namespace's helper programs (the session host
// pfc-trace-host, the compile service pfc-trace-compiler) from a process of the
// namespace. Both detach at once; the caller reaps the spawned process here.
#pragma once

#include <string>
#include <vector>

namespace pfc::etw {

struct SpawnResult {
  int error = 0;        // posix_spawn's errno: the program could not be started
  int exit_status = 0;  // its exit status once reaped; 0 when it could not be reaped
                        // (SIGCHLD ignored by this program) or died by a signal: -1
};

// Runs `argv` (argv[0]: the executable's path) with stdin, stdout and stderr on
// /dev/null, in a new session, every signal at its default and none blocked, this
// process's environment with PFC_TRACE_DIR set to `trace_dir` (the helper uses this
// namespace whatever the environment says), `fd3` (when >= 0) as its descriptor 3 and no
// other descriptor; then waits for it (it detaches, so the wait is short). `fd3` is not
// closed here, unless `close_fd3`: then it is closed as soon as the program is spawned,
// before the wait — a descriptor handed over (a lock the helper keeps) stays in this
// process, where a fork by another thread would copy it, no longer than that.
SpawnResult spawn_and_reap(const std::vector<std::string>& argv, const std::string& trace_dir,
                           int fd3 = -1, bool close_fd3 = false);

}  // namespace pfc::etw
