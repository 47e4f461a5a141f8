// tests/trace/program_cache_test.cc — the files of the namespace's compiled programs
// (trace/program_cache.h, docs/namespace.md "Compiled programs"): strict names and
// requests, whole-file writes, the "in use" flock a process holds and the service's probe,
// the service lock, and the listing `pfc trace programs` prints.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/program_cache.h"
#include "trace_test_util.h"

namespace pfc::trace {
namespace {

using testing::TempNamespace;

const std::string kKey = "0123456789abcdef0123456789abcdef";
const std::string kGuid = "{00000009-0000-4000-8000-000000000001}";

TEST(ProgramCache, NamesAreStrict) {
  EXPECT_EQ(program_file_name(kKey, ProgramFile::Code), "prog-" + kKey + ".so");
  EXPECT_EQ(program_file_name(kKey, ProgramFile::Refusal), "prog-" + kKey + ".refused");
  EXPECT_EQ(program_file_name(kKey, ProgramFile::Databases), "prog-" + kKey + ".hsdb");
  for (ProgramFile kind : {ProgramFile::Request, ProgramFile::Code, ProgramFile::Failure,
                           ProgramFile::Refusal, ProgramFile::Databases}) {
    auto parsed = parse_program_file_name(program_file_name(kKey, kind));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->key, kKey);
    EXPECT_EQ(parsed->kind, kind);
  }
  for (const std::string& bad :
       std::vector<std::string>{"prog-" + kKey + ".so.tmp-1-2", "prog-" + kKey.substr(1) + ".so",
                                "prog-" + kKey + ".sox", "prog-0123456789ABCDEF0123456789abcdef.so",
                                "p-" + kKey + ".so", "prog-" + kKey})
    EXPECT_FALSE(parse_program_file_name(bad)) << bad;
}

TEST(ProgramCache, RequestRoundTripAndRefusals) {
  const std::string wire("\0\1wire", 6);
  const std::string bytes = encode_request(kGuid, wire);
  auto r = decode_request(bytes);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->provider, kGuid);
  EXPECT_EQ(r->wire, wire);
  for (const std::string& bad : std::vector<std::string>{
           "", "PFCREQ 2 " + kGuid + "\n", "PFCREQ 1 " + kGuid,
           "PFCREQ 1 {not-a-guid-at-all-not-a-guid-at-all}\n", "PFCREQ 1 " + kGuid + " x"})
    EXPECT_FALSE(decode_request(bad)) << bad;
}

TEST(ProgramCache, WholeFileWritesAndReads) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const std::string name = program_file_name(kKey, ProgramFile::Failure);
  ASSERT_TRUE(write_file_atomic(dir, name, "first"));
  ASSERT_TRUE(write_file_atomic(dir, name, "second"));
  struct stat st;
  ASSERT_EQ(::stat((ns.path() + "/" + name).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto fd = dir.open_file(name, false);
  ASSERT_TRUE(fd);
  auto text = read_whole_file(fd->get(), 100, name);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, "second");
  EXPECT_FALSE(read_whole_file(fd->get(), 3, name));
  EXPECT_EQ(dir.list("prog-").size(), 1u);  // no temporary left
  // keep_existing: the first writer's file stays, the second succeeds without replacing it.
  const std::string once = program_file_name(kKey, ProgramFile::Request);
  ASSERT_TRUE(write_file_atomic(dir, once, "first", nullptr, true));
  ASSERT_TRUE(write_file_atomic(dir, once, "second", nullptr, true));
  auto kept = dir.open_file(once, false);
  ASSERT_TRUE(kept);
  EXPECT_EQ(read_whole_file(kept->get(), 100, once).value_or(""), "first");
  EXPECT_EQ(dir.list("prog-").size(), 2u);
}

TEST(ProgramCache, StaleTemporariesAreThoseOfDeadWriters) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const ProcessKey self = self_process();
  const std::string mine =
      "prog-" + kKey + ".so.tmp-" + std::to_string(self.pid) + "-" + std::to_string(self.start);
  const std::string dead = "prog-" + kKey + ".req.tmp-" + std::to_string(self.pid) + "-1";
  ASSERT_TRUE(dir.open_file(mine, true));
  ASSERT_TRUE(dir.open_file(dead, true));
  EXPECT_EQ(stale_program_temporaries(dir), std::vector<std::string>{dead});
}

TEST(ProgramCache, InUseMarkAndProbe) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const std::string name = program_file_name(kKey, ProgramFile::Code);
  bool missing = false;
  EXPECT_FALSE(open_program_file_used(dir, name, &missing));
  EXPECT_TRUE(missing);
  ASSERT_TRUE(write_file_atomic(dir, name, "code"));
  struct stat st;
  ASSERT_EQ(::stat((ns.path() + "/" + name).c_str(), &st), 0);
  EXPECT_EQ(processes_using(st.st_dev, st.st_ino), 0u);
  {
    auto used = open_program_file_used(dir, name, &missing);
    ASSERT_TRUE(used) << used.error().message;
    EXPECT_EQ(processes_using(st.st_dev, st.st_ino), 1u);
    // Another process probes: in use.
    const pid_t child = ::fork();
    if (child == 0) ::_exit(lock_unused(dir, name) ? 1 : 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  UniqueFd held = lock_unused(dir, name);  // the mark died with the descriptor
  ASSERT_TRUE(held);
  dir.remove(name);
  // A removed file is no longer there to probe.
  EXPECT_FALSE(lock_unused(dir, name));
}

TEST(ProgramCache, OneServiceLock) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  EXPECT_FALSE(compile_service_running(dir));
  auto lock = take_compile_service_lock(dir);
  ASSERT_TRUE(lock && *lock);
  auto second = take_compile_service_lock(dir);
  ASSERT_TRUE(second);
  EXPECT_FALSE(*second);
  EXPECT_TRUE(compile_service_running(dir));
  *lock = UniqueFd();
  EXPECT_FALSE(compile_service_running(dir));
}

// A service started with the lock its starter took adopts that descriptor; a descriptor of
// another file, or one of the lock file that another open file holds, is refused.
TEST(ProgramCache, AdoptedServiceLock) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  auto held = take_compile_service_lock(dir);
  ASSERT_TRUE(held && *held);
  const int copy = ::fcntl(held->get(), F_DUPFD, 3);  // the service's inherited descriptor
  *held = UniqueFd();                                 // the starter's own copy closed
  auto adopted = adopt_compile_service_lock(dir, copy);
  ASSERT_TRUE(adopted) << adopted.error().message;
  EXPECT_TRUE(compile_service_running(dir));
  EXPECT_NE(::fcntl(adopted->get(), F_GETFD) & FD_CLOEXEC, 0);

  auto other = dir.open_file(kCompilerLock, false);  // another open file: not the holder
  ASSERT_TRUE(other);
  auto refused = adopt_compile_service_lock(dir, other->release());
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("does not hold"), std::string::npos)
      << refused.error().message;
  ASSERT_TRUE(write_file_atomic(dir, "prog-" + kKey + ".req", "x"));
  auto wrong = dir.open_file("prog-" + kKey + ".req", false);
  ASSERT_TRUE(wrong);
  refused = adopt_compile_service_lock(dir, wrong->release());
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("is not"), std::string::npos) << refused.error().message;
}

TEST(ProgramCache, ListingStates) {
  TempNamespace ns;
  TraceDir dir = ns.open();
  const std::string a(32, 'a'), b(32, 'b'), c(32, 'c'), d(32, 'd');
  ASSERT_TRUE(write_file_atomic(dir, program_file_name(a, ProgramFile::Request),
                                encode_request(kGuid, "ir")));
  ASSERT_TRUE(write_file_atomic(dir, program_file_name(b, ProgramFile::Request),
                                encode_request(kGuid, "ir")));
  ASSERT_TRUE(write_file_atomic(dir, program_file_name(b, ProgramFile::Code), "12345"));
  ASSERT_TRUE(write_file_atomic(dir, program_file_name(c, ProgramFile::Failure), "why"));
  // Code some process refused: failed, with the refusal's reason.
  ASSERT_TRUE(write_file_atomic(dir, program_file_name(d, ProgramFile::Code), "123"));
  ASSERT_TRUE(write_file_atomic(dir, program_file_name(d, ProgramFile::Refusal), "refused"));
  const auto all = list_cached_programs(dir);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].key, a);
  EXPECT_EQ(all[0].state, CachedProgram::State::Compiling);
  EXPECT_EQ(all[0].provider, kGuid);
  EXPECT_EQ(all[1].state, CachedProgram::State::Ready);
  EXPECT_EQ(all[1].bytes, 5u);
  EXPECT_EQ(all[2].state, CachedProgram::State::Failed);
  EXPECT_EQ(all[2].reason, "why");
  EXPECT_EQ(all[2].provider, "");
  EXPECT_EQ(all[3].state, CachedProgram::State::Failed);
  EXPECT_EQ(all[3].reason, "refused");
  EXPECT_EQ(all[3].bytes, 3u);
}

}  // namespace
}  // namespace pfc::trace
