// compiler/service/compile_service.h — the namespace's compile service, `pfc-trace-compiler`
// (docs/namespace.md "Compiled programs"): one process per namespace (it holds
// `compiler.lock`), started on demand by the provider processes that need native code,
// compiling each requested routing program once (compile_shared, compiler/jit/shared_code.h)
// into the file every process of the namespace loads. It trusts nothing in a request: the
// key is recomputed from the bytes and the IR decoded and verified. It removes programs no
// process has used for a while, keeps the cache within its byte budget, and exits once the
// cache is empty and no request came for a while.
#pragma once

#include <cstdint>

namespace pfc::service {

struct ServiceOptions {
  uint64_t idle_ms = 5000;            // exit after this long with no request and nothing cached
  uint64_t keep_ms = 30000;           // an unused program is removed after this long
  uint64_t max_bytes = 256ull << 20;  // the cache's files in all; unused ones go first
};

// The defaults, overridden by PFC_COMPILER_IDLE_MS, PFC_COMPILER_KEEP_MS and
// PFC_COMPILER_CACHE_MB (plain decimal; anything else is ignored).
ServiceOptions options_from_environment();

// Serves the namespace of PFC_TRACE_DIR (trace/dir.h) until idle. Returns the exit status:
// 0 also when another service already runs; 3 when the namespace cannot be opened (or
// `lock_fd` is not its compiler.lock, held). `lock_fd` >= 0: the lock taken by the provider
// that started this service (trace::adopt_compile_service_lock); else the service takes it.
int run_compile_service(const ServiceOptions& options, int lock_fd = -1);

}  // namespace pfc::service
