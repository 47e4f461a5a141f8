/* tests/tdh_api/tdh_decode_producer.c — the writing process of the tdh_api.decode_* tests:
 * `tdh_decode_producer LOGFILE` starts the file session "pfc-tdh-decode" writing LOGFILE,
 * registers and enables the provider of decode.man, writes its events (Sent twice, Idle
 * once) and stops the session; `tdh_decode_producer --provider-only` only registers and
 * writes them (a session enabled it beforehand, e.g. `pfc trace enable --script
 * decode.pfs`). The consumer (tdh_decode_consumer.c) decodes them in another process. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pfc/etw/evntprov.h"
#include "pfc/etw/evntrace.h"

static const GUID kProvider = {0x5E1A0000, 0, 0x4000, {0x80, 0, 0, 0, 0, 0, 0, 0xD2}};
static const GUID kSession = {
    0x11112222, 0x3333, 0x4444, {0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC}};

typedef struct {
  EVENT_TRACE_PROPERTIES props;
  WCHAR name[64];
  WCHAR file[1024];
} Properties;

#define FAIL_IF(cond, what)                                 \
  do {                                                      \
    if (cond) {                                             \
      fprintf(stderr, "tdh_decode_producer: %s\n", (what)); \
      return 1;                                             \
    }                                                       \
  } while (0)

/* One Sent event: the fields of decode.man's template "Sent" in order. */
static ULONG write_sent(REGHANDLE reg, const WCHAR* peer, UINT32 address, UINT16 port,
                        UINT8 protocol, UINT32 options, ULONG64 when, UINT32 ok, UINT32 status,
                        UINT16 chunk_count, const UINT32* chunks, UINT32 digest_size,
                        const UCHAR* digest, const char* note) {
  EVENT_DESCRIPTOR d;
  EventDescCreate(&d, 1, 0, 0, 4, 9, 3, 0x10);
  EVENT_DATA_DESCRIPTOR f[14];
  ULONG peer_bytes = 0;
  while (peer[peer_bytes / 2] != 0) peer_bytes += 2;
  EventDataDescCreate(&f[0], peer, peer_bytes + 2);
  EventDataDescCreate(&f[1], &address, 4);
  EventDataDescCreate(&f[2], &port, 2);
  EventDataDescCreate(&f[3], &protocol, 1);
  EventDataDescCreate(&f[4], &options, 4);
  EventDataDescCreate(&f[5], &kSession, 16);
  EventDataDescCreate(&f[6], &when, 8);
  EventDataDescCreate(&f[7], &ok, 4);
  EventDataDescCreate(&f[8], &status, 4);
  EventDataDescCreate(&f[9], &chunk_count, 2);
  EventDataDescCreate(&f[10], chunks, 4u * chunk_count);
  EventDataDescCreate(&f[11], &digest_size, 4);
  EventDataDescCreate(&f[12], digest, digest_size);
  EventDataDescCreate(&f[13], note, (ULONG)strlen(note) + 1);
  return EventWrite(reg, &d, 14, f);
}

/* Writes the three events. */
static int write_events(REGHANDLE reg) {
  static const UINT32 chunks[3] = {512, 1024, 4096};
  static const UCHAR digest[4] = {0xDE, 0xAD, 0xBE, 0xEF};
  /* 10.1.2.3 in network byte order; 2024-01-01T00:00:00Z */
  FAIL_IF(write_sent(reg, u"alpha", 0x0302010Au, 0x5000, 6, 3, 133485408000000000ull, 1, 0, 3,
                     chunks, 4, digest, "first") != ERROR_SUCCESS,
          "EventWrite 1");
  FAIL_IF(write_sent(reg, u"b\u00e9ta", 0x0100007Fu, 0x3500, 17, 0,
                     133485408000000000ull + 123456789ull, 0, 0x80004005u, 0, chunks, 0, digest,
                     "") != ERROR_SUCCESS,
          "EventWrite 2");
  EVENT_DESCRIPTOR idle;
  EventDescCreate(&idle, 2, 0, 0, 5, 0, 0, 0);
  FAIL_IF(EventWrite(reg, &idle, 0, NULL) != ERROR_SUCCESS, "EventWrite 3");
  return 0;
}

int main(int argc, char** argv) {
  FAIL_IF(argc != 2, "usage: tdh_decode_producer LOGFILE | --provider-only");
  if (strcmp(argv[1], "--provider-only") == 0) {
    REGHANDLE reg = 0;
    FAIL_IF(EventRegister(&kProvider, NULL, NULL, &reg) != ERROR_SUCCESS, "EventRegister");
    FAIL_IF(!EventProviderEnabled(reg, 5, 0x10), "not enabled by a session");
    const int rc = write_events(reg);
    FAIL_IF(EventUnregister(reg) != ERROR_SUCCESS, "EventUnregister");
    return rc;
  }
  Properties p;
  memset(&p, 0, sizeof p);
  p.props.Wnode.BufferSize = sizeof p;
  p.props.Wnode.Flags = WNODE_FLAG_TRACED_GUID;
  p.props.LogFileMode = EVENT_TRACE_FILE_MODE_SEQUENTIAL;
  p.props.LoggerNameOffset = offsetof(Properties, name);
  p.props.LogFileNameOffset = offsetof(Properties, file);
  size_t n = strlen(argv[1]);
  FAIL_IF(n >= 1024, "path too long");
  for (size_t i = 0; i < n; ++i) p.file[i] = (unsigned char)argv[1][i];
  TRACEHANDLE session = 0;
  FAIL_IF(StartTraceW(&session, u"pfc-tdh-decode", &p.props) != ERROR_SUCCESS, "StartTrace");
  REGHANDLE reg = 0;
  FAIL_IF(EventRegister(&kProvider, NULL, NULL, &reg) != ERROR_SUCCESS, "EventRegister");
  FAIL_IF(EnableTraceEx2(session, &kProvider, EVENT_CONTROL_CODE_ENABLE_PROVIDER, 5, 0, 0, INFINITE,
                         NULL) != ERROR_SUCCESS,
          "EnableTraceEx2");
  if (write_events(reg) != 0) return 1;
  FAIL_IF(EventUnregister(reg) != ERROR_SUCCESS, "EventUnregister");
  FAIL_IF(StopTraceW(session, NULL, &p.props) != ERROR_SUCCESS, "StopTrace");
  return 0;
}
