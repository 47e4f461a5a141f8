// trace/program_cache.cc — see program_cache.h.
#include "trace/program_cache.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "trace/names.h"
#include "trace/testpoint.h"

namespace pfc::trace {
namespace {

constexpr std::string_view kPrefix = "prog-";
constexpr std::string_view kTemp = ".tmp-";
constexpr std::string_view kRequestMagic = "PFCREQ 1 ";
constexpr size_t kGuidText = 38;

std::string_view suffix_of(ProgramFile kind) {
  switch (kind) {
    case ProgramFile::Request: return ".req";
    case ProgramFile::Code: return ".so";
    case ProgramFile::Failure: return ".fail";
    case ProgramFile::Refusal: return ".refused";
    case ProgramFile::Databases: return ".hsdb";
  }
  return "";
}

// "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}", hex digits of either case (pfc/guid.h's text;
// trace/ does not link the runtime).
bool guid_text(std::string_view t) {
  if (t.size() != kGuidText || t.front() != '{' || t.back() != '}') return false;
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    const bool dash = i == 9 || i == 14 || i == 19 || i == 24;
    if (dash ? t[i] != '-' : !std::isxdigit(static_cast<unsigned char>(t[i]))) return false;
  }
  return true;
}

int flock_retrying(int fd, int op) {
  int rc;
  while ((rc = ::flock(fd, op)) != 0 && errno == EINTR) {
  }
  return rc;
}

}  // namespace

bool valid_program_key(std::string_view key) {
  if (key.size() != 32) return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string program_file_name(std::string_view key, ProgramFile kind) {
  return std::string(kPrefix) + std::string(key) + std::string(suffix_of(kind));
}

std::optional<ProgramFileName> parse_program_file_name(std::string_view name) {
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  if (name.size() < 32 || !valid_program_key(name.substr(0, 32))) return std::nullopt;
  const std::string_view suffix = name.substr(32);
  for (ProgramFile kind : {ProgramFile::Request, ProgramFile::Code, ProgramFile::Failure,
                           ProgramFile::Refusal, ProgramFile::Databases})
    if (suffix == suffix_of(kind)) return ProgramFileName{std::string(name.substr(0, 32)), kind};
  return std::nullopt;
}

std::string encode_request(std::string_view provider, std::string_view wire) {
  std::string out(kRequestMagic);
  out.append(provider);
  out.push_back('\n');
  out.append(wire);
  return out;
}

Result<Request> decode_request(std::string_view bytes) {
  const size_t header = kRequestMagic.size() + kGuidText + 1;
  if (bytes.size() < header || bytes.substr(0, kRequestMagic.size()) != kRequestMagic)
    return make_error("request: does not start with \"PFCREQ 1 \" (at byte 0)");
  Request r;
  r.provider = bytes.substr(kRequestMagic.size(), kGuidText);
  if (!guid_text(r.provider))
    return make_error("request: no provider GUID at byte " + std::to_string(kRequestMagic.size()));
  if (bytes[header - 1] != '\n')
    return make_error("request: no line end at byte " + std::to_string(header - 1));
  r.wire = bytes.substr(header);
  return r;
}

Result<void> write_file_atomic(const TraceDir& dir, const std::string& name, std::string_view bytes,
                               const char* written_point, bool keep_existing) {
  const ProcessKey self = self_process();
  const std::string tmp =
      name + std::string(kTemp) + std::to_string(self.pid) + "-" + std::to_string(self.start);
  const std::string what = "trace file '" + dir.path() + "/" + tmp + "'";
  UniqueFd fd(
      ::openat(dir.fd(), tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (!fd) return make_error(errno_text("cannot create " + what, errno));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      dir.remove(tmp);
      return make_error(errno_text("cannot write " + what, err));
    }
    done += static_cast<size_t>(n);
  }
  if (written_point != nullptr) testpoint(written_point);
  int rc = keep_existing
               ? ::renameat2(dir.fd(), tmp.c_str(), dir.fd(), name.c_str(), RENAME_NOREPLACE)
               : -1;
  if (keep_existing && rc != 0 && errno == EEXIST) {
    dir.remove(tmp);
    return {};
  }
  if (rc != 0) rc = ::renameat(dir.fd(), tmp.c_str(), dir.fd(), name.c_str());
  if (rc != 0) {
    const int err = errno;
    dir.remove(tmp);
    return make_error(errno_text("cannot rename " + what, err));
  }
  return {};
}

Result<std::string> read_whole_file(int fd, size_t limit, const std::string& what) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return make_error(errno_text("cannot stat " + what, errno));
  if (static_cast<uint64_t>(st.st_size) > limit)
    return make_error(what + " is larger than " + std::to_string(limit) + " bytes");
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd, out.data() + done, out.size() - done, static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(errno_text("cannot read " + what, errno));
    if (n == 0) break;  // shrunk meanwhile: what was read is checked by the caller
    done += static_cast<size_t>(n);
  }
  out.resize(done);
  return out;
}

std::vector<std::string> stale_program_temporaries(const TraceDir& dir) {
  std::vector<std::string> out;
  for (std::string& name : dir.list(std::string(kPrefix))) {
    const size_t at = name.find(kTemp);
    if (at == std::string::npos) continue;
    // "…tmp-PID-START" read as a 'p' object name: "p-PID-START".
    const std::string owner = "p-" + name.substr(at + kTemp.size());
    auto parsed = parse_object_name(owner, 'p', false);
    if (!parsed || !process_alive(parsed->process)) out.push_back(std::move(name));
  }
  return out;
}

bool compile_service_running(const TraceDir& dir) {
  auto fd = dir.open_file(kCompilerLock, true);
  if (!fd) return false;  // cannot even open it: no service could hold it either
  if (flock_retrying(fd->get(), LOCK_EX | LOCK_NB) == 0) return false;  // closing unlocks
  return errno == EWOULDBLOCK;
}

Result<UniqueFd> take_compile_service_lock(const TraceDir& dir) {
  auto fd = dir.open_file(kCompilerLock, true);
  if (!fd) return std::unexpected(fd.error());
  if (flock_retrying(fd->get(), LOCK_EX | LOCK_NB) == 0) return std::move(*fd);
  if (errno == EWOULDBLOCK) return UniqueFd();
  return make_error(errno_text("cannot lock '" + dir.path() + "/" + kCompilerLock + "'", errno));
}

Result<UniqueFd> adopt_compile_service_lock(const TraceDir& dir, int fd) {
  UniqueFd held(fd);
  const std::string what = "descriptor " + std::to_string(fd);
  struct stat got, want;
  if (::fstat(fd, &got) != 0) return make_error(errno_text("cannot stat " + what, errno));
  if (::fstatat(dir.fd(), kCompilerLock, &want, AT_SYMLINK_NOFOLLOW) != 0 ||
      got.st_dev != want.st_dev || got.st_ino != want.st_ino)
    return make_error(what + " is not '" + dir.path() + "/" + kCompilerLock + "'");
  if (flock_retrying(fd, LOCK_EX | LOCK_NB) != 0)
    return make_error(
        errno_text(what + " does not hold '" + dir.path() + "/" + kCompilerLock + "'", errno));
  (void)::fcntl(fd, F_SETFD, FD_CLOEXEC);
  return held;
}

Result<UsedFile> open_program_file_used(const TraceDir& dir, const std::string& name,
                                        bool* missing) {
  *missing = false;
  auto fd = dir.open_file(name, false);
  if (!fd) {
    *missing = ::faccessat(dir.fd(), name.c_str(), F_OK, AT_SYMLINK_NOFOLLOW) != 0;
    // There now, absent a moment ago: the service renamed it into place in between. Opened
    // again rather than refused for a failure that no longer holds.
    if (!*missing) fd = dir.open_file(name, false);
    if (!fd) return std::unexpected(fd.error());
  }
  // The service holds the exclusive lock only while it unlinks: a few tries suffice.
  for (int tries = 0; flock_retrying(fd->get(), LOCK_SH | LOCK_NB) != 0; ++tries) {
    if (errno != EWOULDBLOCK || tries == 100)
      return make_error(errno_text("cannot lock '" + dir.path() + "/" + name + "'", errno));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  struct stat st;
  if (::fstat(fd->get(), &st) != 0 || st.st_nlink == 0) {
    *missing = true;
    return make_error("trace file '" + dir.path() + "/" + name + "' was just removed");
  }
  return UsedFile{std::move(*fd)};
}

UniqueFd lock_unused(const TraceDir& dir, const std::string& name) {
  UniqueFd fd(::openat(dir.fd(), name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (fd && flock_retrying(fd.get(), LOCK_EX | LOCK_NB) != 0) return UniqueFd();
  return fd;
}

uint32_t processes_using(uint64_t dev, uint64_t ino) {
  std::ifstream locks("/proc/locks");
  std::set<long> pids;
  for (std::string line; std::getline(locks, line);) {
    std::istringstream in(line);
    std::string id, type, mode, access, where;
    long pid = 0;
    if (!(in >> id >> type >> mode >> access >> pid >> where)) continue;  // "->" waiters too
    if (type != "FLOCK" || access != "READ") continue;
    unsigned maj = 0, min = 0;
    unsigned long long inode = 0;
    if (std::sscanf(where.c_str(), "%x:%x:%llu", &maj, &min, &inode) != 3) continue;
    if (maj == ::major(dev) && min == ::minor(dev) && inode == ino) pids.insert(pid);
  }
  return static_cast<uint32_t>(pids.size());
}

namespace {

void fill_request(const TraceDir& dir, CachedProgram& p) {
  auto fd = dir.open_file(program_file_name(p.key, ProgramFile::Request), false);
  if (!fd) return;
  auto bytes = read_whole_file(fd->get(), kMaxProgramFileBytes, "request");
  if (!bytes) return;
  if (auto r = decode_request(*bytes)) p.provider = std::string(r->provider);
}

std::string read_reason(const TraceDir& dir, const std::string& name) {
  auto fd = dir.open_file(name, false);
  auto text = fd ? read_whole_file(fd->get(), kMaxFailureBytes, "trace file '" + name + "'")
                 : Result<std::string>(std::unexpected(fd.error()));
  return text ? *text : text.error().message;
}

void fill_code(const TraceDir& dir, CachedProgram& p) {
  p.code_name = program_file_name(p.key, ProgramFile::Code);
  struct stat st;
  if (::fstatat(dir.fd(), p.code_name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
  p.bytes = static_cast<uint64_t>(st.st_size);
  p.processes = processes_using(st.st_dev, st.st_ino);
}

}  // namespace

std::vector<CachedProgram> list_cached_programs(const TraceDir& dir) {
  std::map<std::string, std::array<bool, 5>> keys;
  for (const std::string& name : dir.list(std::string(kPrefix)))
    if (auto f = parse_program_file_name(name)) keys[f->key][static_cast<size_t>(f->kind)] = true;
  std::vector<CachedProgram> out;
  for (const auto& [key, has] : keys) {
    CachedProgram p;
    p.key = key;
    if (has[static_cast<size_t>(ProgramFile::Request)]) fill_request(dir, p);
    if (has[static_cast<size_t>(ProgramFile::Databases)])
      p.databases_name = program_file_name(key, ProgramFile::Databases);
    if (has[static_cast<size_t>(ProgramFile::Code)]) {
      p.state = CachedProgram::State::Ready;
      fill_code(dir, p);
    }
    for (ProgramFile why : {ProgramFile::Failure, ProgramFile::Refusal}) {
      if (!has[static_cast<size_t>(why)]) continue;
      p.state = CachedProgram::State::Failed;
      p.reason = read_reason(dir, program_file_name(key, why));
      break;
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace pfc::trace
