// cli/commands/gen.cc — `pfc gen SCRIPT --count N --seed S -o FILE [--match-rate R]`:
// streams a binary capture of synthetic events drawn from the script's schema
// (cli/generate.h) into FILE ("-" = standard output) through io/capture_sink.h, holding no
// events, and prints one summary line (to stderr when the capture goes to stdout).
#include <cstdio>

#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/generate.h"
#include "cli/output_file.h"
#include "cli/script_loader.h"
#include "io/capture_sink.h"

namespace pfc::cli {

using io::CaptureSink;

int command_gen(const GenCommandOptions& options, std::ostream& out, std::ostream& err) {
  auto loaded = load_script(options.script, err);
  if (!loaded) return loaded.error();
  auto file = OutputFile::open(options.output);
  if (!file) {
    err << "pfc: error: " << file.error().message << '\n';
    return kExitInput;
  }
  std::vector<Guid> guids;
  for (const ProviderDef& p : loaded->checked().schema.providers) guids.push_back(p.guid);
  auto sink = CaptureSink::open(*file, std::move(guids));
  if (!sink) {
    err << "pfc: error: " << sink.error().message << '\n';
    return kExitInput;
  }
  // A failed generation leaves no partial file behind (only a regular file is removed:
  // never a device such as /dev/full, or a pipe).
  const bool remove_on_failure = !file->is_stdout() && file->is_regular();
  const auto fail = [&](int code) {
    if (remove_on_failure) std::remove(options.output.c_str());
    return code;
  };
  const GenOptions gen{options.count, options.seed, options.match_rate};
  auto generated =
      generate_events(loaded->checked(), gen,
                      [&](uint16_t provider, const Event& e, uint64_t timestamp) -> Result<void> {
                        return sink->add(provider, e.view(), timestamp);
                      });
  if (!generated) {
    err << (generated.error().internal ? "pfc: internal error: " : "pfc: error: ")
        << generated.error().message << '\n';
    return fail(generated.error().internal ? kExitInternal : kExitInput);
  }
  if (auto f = sink->finish(); !f) {
    err << "pfc: error: " << f.error().message << '\n';
    return fail(kExitInput);
  }
  if (!file->close()) return fail(report_write_error(*file, err));
  (file->is_stdout() ? err : out) << "wrote " << options.count << " events (" << generated->matching
                                  << " matching) to " << file->name() << '\n';
  return kExitOk;
}

}  // namespace pfc::cli
