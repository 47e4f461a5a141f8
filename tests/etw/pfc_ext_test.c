/* tests/etw/pfc_ext_test.c — the pfc extensions of controllers (docs/etw.md "pfc
 * extensions"): PfcGetNamespaceProblem, PfcGetStartTraceProblem and
 * PfcEnumerateTracePrograms: their argument errors and buffer sizes, no problem in a usable
 * namespace, the reason of a refused log file, and programs of the namespace's cache
 * (docs/namespace.md "Compiled programs") written here as files: a request with a failure,
 * and a code file that fails its checks. Other tests of the process may add programs of
 * their own, so these are looked up by key. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, link */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "etw_test.h"
#include "etw_util.h"
#include "pfc/etw/pfc_etw_ext.h"

#define FAILED_KEY "0badc0de0badc0de0badc0de0badc0de"
#define BAD_CODE_KEY "c0dec0dec0dec0dec0dec0dec0dec0de"

TEST(namespace_problem) {
  char text[64];
  ULONG size = 77;
  CHECK_EQ(PfcGetNamespaceProblem(text, sizeof text, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcGetNamespaceProblem(NULL, 4, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(size, 77);
  CHECK_EQ(PfcGetNamespaceProblem(NULL, 0, &size), ERROR_MORE_DATA); /* the size: "" */
  CHECK_EQ(size, 1);
  memset(text, 'x', sizeof text);
  CHECK_EQ(PfcGetNamespaceProblem(text, sizeof text, &size), ERROR_SUCCESS);
  CHECK_EQ(size, 1);
  CHECK_EQ(text[0], 0);
}

/* A log file with a second name is refused with ERROR_ACCESS_DENIED, the code alone: the
 * thread's start problem names the file and why; the next start that succeeds clears it. */
TEST(start_trace_problem) {
  char path[] = "/tmp/pfc-start-problem-XXXXXX";
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  char second[64];
  snprintf(second, sizeof second, "%s-link", path);
  CHECK_EQ(link(path, second), 0);
  struct {
    EVENT_TRACE_PROPERTIES props;
    WCHAR name[64];
    WCHAR file[64];
  } p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  p.props.LoggerNameOffset = offsetof(__typeof__(p), name);
  p.props.LogFileNameOffset = offsetof(__typeof__(p), file);
  size_t i = 0;
  for (; path[i] != 0; ++i) p.file[i] = (WCHAR)path[i];
  p.file[i] = 0;
  TRACEHANDLE h = 0;
  CHECK_EQ(StartTraceW(&h, u"pe_linked", &p.props), ERROR_ACCESS_DENIED);

  char text[256];
  ULONG size = 77;
  CHECK_EQ(PfcGetStartTraceProblem(text, sizeof text, NULL), ERROR_INVALID_PARAMETER);
  CHECK_EQ(PfcGetStartTraceProblem(NULL, 4, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(size, 77);
  CHECK_EQ(PfcGetStartTraceProblem(NULL, 0, &size), ERROR_MORE_DATA);
  char want[192];
  snprintf(want, sizeof want,
           "log file '%s' has 2 hard links; a session records only into a file with one name",
           path);
  CHECK_EQ(size, strlen(want) + 1);
  CHECK_EQ(PfcGetStartTraceProblem(text, size - 1, &size), ERROR_MORE_DATA);
  CHECK_EQ(PfcGetStartTraceProblem(text, sizeof text, &size), ERROR_SUCCESS);
  CHECK(strcmp(text, want) == 0);

  stop_session(start_session(u"pe_realtime"));
  CHECK_EQ(PfcGetStartTraceProblem(text, sizeof text, &size), ERROR_SUCCESS);
  CHECK_EQ(size, 1);
  CHECK_EQ(text[0], 0);
  unlink(second);
  unlink(path);
}

static void write_cache_file(const char* name, const char* content) {
  const char* dir = getenv("PFC_TRACE_DIR");
  CHECK(dir != NULL);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  CHECK(fd >= 0);
  CHECK_EQ(write(fd, content, strlen(content)), strlen(content));
  close(fd);
}

static const PFC_TRACE_PROGRAM_INFO* find_program(const PFC_TRACE_PROGRAM_ENUMERATION_INFO* e,
                                                  const char* key) {
  for (ULONG i = 0; i < e->NumberOfPrograms; ++i)
    if (strcmp((const char*)e + e->Programs[i].KeyOffset, key) == 0) return &e->Programs[i];
  return NULL;
}

TEST(enumerate_trace_programs) {
  ULONG size = 0;
  CHECK_EQ(PfcEnumerateTracePrograms(NULL, NULL), ERROR_INVALID_PARAMETER);
  size = 16;
  CHECK_EQ(PfcEnumerateTracePrograms(NULL, &size), ERROR_INVALID_PARAMETER);
  CHECK_EQ(size, 16);
  size = 0; /* creates the namespace directory when there is none */
  CHECK_EQ(PfcEnumerateTracePrograms(NULL, &size), ERROR_INSUFFICIENT_BUFFER);
  write_cache_file("prog-" FAILED_KEY ".req",
                   "PFCREQ 1 {6A4D0001-0001-4000-8000-000000000000}\nwire");
  write_cache_file("prog-" FAILED_KEY ".fail", "the service refused it");
  write_cache_file("prog-" BAD_CODE_KEY ".so", "not a program");
  size = 0;
  CHECK_EQ(PfcEnumerateTracePrograms(NULL, &size), ERROR_INSUFFICIENT_BUFFER);
  CHECK(size >= offsetof(PFC_TRACE_PROGRAM_ENUMERATION_INFO, Programs) +
                    2 * sizeof(PFC_TRACE_PROGRAM_INFO));
  const ULONG needed = size;
  ULONGLONG* buffer = calloc(needed / 8 + 1, 8);
  CHECK(buffer != NULL);
  PFC_TRACE_PROGRAM_ENUMERATION_INFO* e = (PFC_TRACE_PROGRAM_ENUMERATION_INFO*)buffer;
  size = needed - 1; /* one byte short: nothing written */
  CHECK_EQ(PfcEnumerateTracePrograms(e, &size), ERROR_INSUFFICIENT_BUFFER);
  CHECK_EQ(size, needed);
  CHECK_EQ(e->NumberOfPrograms, 0);
  CHECK_EQ(PfcEnumerateTracePrograms(e, &size), ERROR_SUCCESS);
  CHECK_EQ(size, needed);
  const char* base = (const char*)e;

  const PFC_TRACE_PROGRAM_INFO* failed = find_program(e, FAILED_KEY);
  CHECK(failed != NULL);
  CHECK_EQ(failed->State, PFC_TRACE_PROGRAM_FAILED);
  CHECK(strcmp(base + failed->ProviderOffset, "{6A4D0001-0001-4000-8000-000000000000}") == 0);
  CHECK(strcmp(base + failed->ReasonOffset, "the service refused it") == 0);
  CHECK_EQ(failed->CodeBytes, 0);
  CHECK_EQ(failed->Databases, 0);
  CHECK(strcmp(base + failed->DatabasesReasonOffset, "") == 0);

  const PFC_TRACE_PROGRAM_INFO* bad = find_program(e, BAD_CODE_KEY);
  CHECK(bad != NULL);
  CHECK_EQ(bad->State, PFC_TRACE_PROGRAM_FAILED); /* its code fails the checks */
  CHECK(strcmp(base + bad->ProviderOffset, "") == 0);
  CHECK(strncmp(base + bad->ReasonOffset, "prog-" BAD_CODE_KEY ".so: ", 42) == 0);
  CHECK_EQ(bad->CodeBytes, strlen("not a program"));
  CHECK_EQ(bad->CompileMicroseconds, 0);
  CHECK_EQ(bad->Processes, 0);
  for (ULONG i = 0; i < e->NumberOfPrograms; ++i) { /* every text inside the buffer */
    const PFC_TRACE_PROGRAM_INFO* p = &e->Programs[i];
    CHECK(p->KeyOffset < needed && p->ProviderOffset < needed && p->ReasonOffset < needed &&
          p->DatabasesReasonOffset < needed);
    CHECK_EQ(strlen(base + p->KeyOffset), 32);
  }
  free(buffer);
}
