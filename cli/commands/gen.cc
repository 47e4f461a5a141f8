// cli/commands/gen.cc — `pfc gen SCRIPT --count N --seed S -o FILE [--match-rate R]`:
// writes a binary capture of synthetic events drawn from the script's schema
// (cli/generate.h) and prints one summary line.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "cli/commands/commands.h"
#include "cli/exit_code.h"
#include "cli/generate.h"
#include "cli/script_loader.h"

namespace pfc::cli {
namespace {

// Writes `bytes` to `path`; false with `reason` set on failure.
bool write_file(const std::string& path, const std::vector<uint8_t>& bytes, std::string& reason) {
  struct Closer {
    void operator()(std::FILE* f) const { std::fclose(f); }
  };
  errno = 0;
  std::unique_ptr<std::FILE, Closer> file(std::fopen(path.c_str(), "wb"));
  if (!file) {
    reason = std::strerror(errno);
    return false;
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file.get()) == bytes.size();
  const int closed = std::fclose(file.release());
  if (!written || closed != 0) {
    reason = std::strerror(errno != 0 ? errno : EIO);
    return false;
  }
  return true;
}

}  // namespace

int command_gen(const GenCommandOptions& options, std::ostream& out, std::ostream& err) {
  auto loaded = load_script(options.script, err);
  if (!loaded) return loaded.error();
  const GenOptions gen{options.count, options.seed, options.match_rate};
  auto generated = generate_events(loaded->checked(), gen);
  if (!generated) {
    err << (generated.error().internal ? "pfc: internal error: " : "pfc: error: ")
        << generated.error().message << '\n';
    return generated.error().internal ? kExitInternal : kExitInput;
  }
  std::string reason;
  if (!write_file(options.output, generated->capture, reason)) {
    err << "pfc: error: cannot write " << options.output << ": " << reason << '\n';
    return kExitInput;
  }
  out << "wrote " << options.count << " events (" << generated->matching << " matching) to "
      << options.output << '\n';
  return kExitOk;
}

}  // namespace pfc::cli
