// compiler/jit/shared_code.cc — compile_shared (compiler/jit/shared_code.h): table-mode code
// generation, the JIT's optimisation pipeline, an ELF object for the host CPU (PIC, small
// code model) and a link into a shared object by ld.lld-19 run as a program in a private
// temporary directory (docs/jit.md "Shared code").
#include "compiler/jit/shared_code.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Target/TargetMachine.h>

#include "compiler/jit/codegen.h"
#include "compiler/jit/pipeline.h"

extern char** environ;

namespace pfc {

namespace {

namespace fs = std::filesystem;

bool stop(const CancelCheck& cancelled) { return cancelled && cancelled(); }

// A private directory (mkdtemp under TMPDIR or /tmp), removed with everything in it.
class TempDir {
 public:
  static Result<TempDir> create() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/pfc-link-XXXXXX";
    if (!mkdtemp(pattern.data()))
      return make_error("cannot create a directory for linking: " +
                        std::string(std::strerror(errno)));
    return TempDir(pattern);
  }
  TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  ~TempDir() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  fs::path operator/(const char* name) const { return path_ / name; }

 private:
  explicit TempDir(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

Result<void> write_file(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) return make_error("cannot write " + path.string());
  return {};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `argv` with stdin from /dev/null and stdout and stderr into `log`; its exit status.
Result<int> run(const std::vector<std::string>& argv, const fs::path& log) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int err = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return make_error("cannot run " + argv[0] + ": " + std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return make_error("cannot wait for " + argv[0] + ": " + std::strerror(errno));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// The first line of the linker's output that says what went wrong.
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string line, first;
  while (std::getline(in, line)) {
    if (first.empty()) first = line;
    if (line.find("error:") != std::string::npos) return line;
  }
  return first.empty() ? "no message" : first;
}

// The shared object of `object`: only pfc_route and pfc_table exported, nothing undefined,
// every relocation resolved at link time but R_X86_64_RELATIVE.
Result<std::string> link_shared(std::string_view object) {
  if (std::string_view(PFC_LLD_PATH).empty())
    return make_error("no ld.lld-19 was found when pfc was built, so shared code cannot be linked");
  auto dir = TempDir::create();
  if (!dir) return std::unexpected(dir.error());
  if (auto ok = write_file(*dir / "code.o", object); !ok) return std::unexpected(ok.error());
  if (auto ok = write_file(*dir / "exports", "{ global: pfc_route; pfc_table; local: *; };\n"); !ok)
    return std::unexpected(ok.error());
  const std::vector<std::string> argv = {PFC_LLD_PATH,
                                         "-shared",
                                         "--no-undefined",
                                         "-z",
                                         "now",
                                         "-z",
                                         "relro",
                                         "-z",
                                         "noexecstack",
                                         "-z",
                                         "text",
                                         "--build-id=none",
                                         "--hash-style=gnu",
                                         "--eh-frame-hdr",
                                         "--version-script=" + (*dir / "exports").string(),
                                         "-o",
                                         (*dir / "code.so").string(),
                                         (*dir / "code.o").string()};
  auto status = run(argv, *dir / "log");
  if (!status) return std::unexpected(status.error());
  if (*status != 0)
    return make_error("linking compiled code failed: " + first_error(read_file(*dir / "log")));
  return read_file(*dir / "code.so");
}

std::string target_text(const llvm::TargetMachine& tm) {
  return tm.getTargetTriple().str() + " " + tm.getTargetCPU().str() + " " +
         tm.getTargetFeatureString().str();
}

// The optimised table-mode object code and its table slots.
Result<std::string> table_object(const ir::Program& program, llvm::TargetMachine& tm,
                                 OptLevel level, std::vector<TableSlot>& slots,
                                 const CancelCheck& cancelled) {
  llvm::LLVMContext context;
  auto module = internal::generate_module(program, context, "pfc_route",
                                          internal::CodegenMode::Table, &slots);
  if (!module) return std::unexpected(module.error());
  if (stop(cancelled)) return make_error(kCancelledMessage);
  (*module)->setDataLayout(tm.createDataLayout());
  (*module)->setTargetTriple(tm.getTargetTriple().str());
  internal::optimize_module(**module, tm, level);
  if (stop(cancelled)) return make_error(kCancelledMessage);
  return internal::emit_machine_code(**module, tm, internal::EmitKind::Object);
}

}  // namespace

Result<std::string> compile_shared(const ir::Program& program, const ProgramKey& key,
                                   OptLevel level, const CancelCheck& cancelled) {
  const auto start = std::chrono::steady_clock::now();
  if (stop(cancelled)) return make_error(kCancelledMessage);
  if (program.code.size() > kMaxJitInstructions)
    return std::unexpected(jit_limit_error(program.code.size()));
  auto tm = internal::host_target_machine(level);
  if (!tm) return std::unexpected(tm.error());
  std::vector<TableSlot> slots;
  auto object = table_object(program, **tm, level, slots, cancelled);
  if (!object) return std::unexpected(object.error());
  if (stop(cancelled)) return make_error(kCancelledMessage);
  auto elf = link_shared(*object);
  if (!elf) return std::unexpected(elf.error());
  if (auto ok = check_shared_object(*elf, slots.size()); !ok)
    return make_error("the linked code is refused: " + ok.error().message);
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - start);
  return write_native_file(key, target_text(**tm), static_cast<uint64_t>(us.count()), slots, *elf);
}

}  // namespace pfc
