// bench/stream/route_capture.cc — `bench_route_capture SCRIPT CAPTURE [ENGINE]`: reads the
// whole capture into memory and validates it (not timed), builds the router exactly as
// `pfc run` does, then times the route loop alone over every record and prints one JSON
// object: {"events":N,"seconds":S,"events_per_second":R}. scripts/bench-stream divides
// `pfc run --count`'s rate by this one.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <vector>

#include "cli/router_setup.h"
#include "cli/script_loader.h"
#include "runtime/capture.h"

int main(int argc, char** argv) {
  using namespace pfc;
  if (argc < 3) {
    std::cerr << "usage: bench_route_capture SCRIPT CAPTURE [interp|jit|auto]\n";
    return 2;
  }
  auto loaded = cli::load_script(argv[1], std::cerr);
  if (!loaded) return 1;
  std::ifstream in(argv[2], std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  auto reader = CaptureReader::open(bytes);
  if (!reader) {
    std::cerr << reader.error().message << '\n';
    return 1;
  }
  const CheckedScript& script = loaded->checked();
  std::vector<uint32_t> providers;
  for (const Guid& g : reader->providers()) {
    const ProviderDef* p = script.schema.find_provider(g);
    if (p == nullptr) return 1;
    providers.push_back(uint32_t(p - script.schema.providers.data()));
  }
  auto setup = cli::make_engine_router(script, argc > 3 ? argv[3] : "auto", std::cerr);
  if (!setup) return setup.error();
  const ScriptRouter& routed = setup->routed;
  CaptureRecord rec;
  uint64_t events = 0, delivered = 0;
  const auto start = std::chrono::steady_clock::now();
  while (reader->next(rec)) {
    delivered +=
        routed.router->route(routed.providers[providers[rec.provider]], rec.event, 0).deliver != 0;
    ++events;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"events\":%llu,\"matched\":%llu,\"seconds\":%.6f,\"events_per_second\":%.0f}\n",
              static_cast<unsigned long long>(events), static_cast<unsigned long long>(delivered),
              seconds, seconds > 0 ? double(events) / seconds : 0.0);
  return 0;
}
