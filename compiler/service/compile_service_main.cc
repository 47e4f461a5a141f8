// compiler/service/compile_service_main.cc — the `pfc-trace-compiler` executable
// (compile_service.h). Started by a provider process (etw/shared_compiler.h) with the
// namespace in PFC_TRACE_DIR; it detaches at once (fork, setsid: the starter reaps the
// spawned process without waiting for the service), so it is nobody's child and no
// provider ever waits for it. `--locked`: descriptor 3 is the namespace's compiler.lock,
// locked for this service by the provider that started it.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "compiler/service/compile_service.h"

int main(int argc, char** argv) {
  bool foreground = false, locked = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--foreground") == 0 && !foreground) {
      foreground = true;
    } else if (std::strcmp(argv[i], "--locked") == 0 && !locked) {
      locked = true;
    } else {
      std::fprintf(stderr,
                   "usage: pfc-trace-compiler [--foreground] [--locked] (started by the providers "
                   "of a trace namespace; docs/namespace.md \"Compiled programs\")\n");
      return 2;
    }
  }
  if (!foreground) {
    const pid_t pid = ::fork();
    if (pid < 0) return 1;
    if (pid > 0) ::_exit(0);  // no static destructors (LLVM's): the starter waits for this
    ::setsid();
  }
  return pfc::service::run_compile_service(pfc::service::options_from_environment(),
                                           locked ? 3 : -1);
}
