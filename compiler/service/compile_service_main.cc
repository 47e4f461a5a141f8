// compiler/service/compile_service_main.cc — the `pfc-trace-compiler` executable
// (compile_service.h). Started by a provider process (etw/shared_compiler.h) with the
// namespace in PFC_TRACE_DIR; it detaches at once (fork, setsid: the starter reaps the
// spawned process without waiting for the service), so it is nobody's child and no
// provider ever waits for it.
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "compiler/service/compile_service.h"

int main(int argc, char** argv) {
  const bool foreground = argc == 2 && std::strcmp(argv[1], "--foreground") == 0;
  if (argc > 1 && !foreground) {
    std::fprintf(stderr,
                 "usage: pfc-trace-compiler [--foreground] (started by the providers of a trace "
                 "namespace; docs/namespace.md \"Compiled programs\")\n");
    return 2;
  }
  if (!foreground) {
    const pid_t pid = ::fork();
    if (pid < 0) return 1;
    if (pid > 0) return 0;
    ::setsid();
  }
  return pfc::service::run_compile_service(pfc::service::options_from_environment());
}
