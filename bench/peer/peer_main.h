/* bench/peer/peer_main.h — main() of a provider program of scripts/bench-lttng, shared by
 * pfc's side (peer_pfc.c) and LTTng-UST's (peer_lttng.c); docs/performance.md "pfc against
 * LTTng-UST". The including file first defines, for the sample event Example_Event_1
 * { Initiator: wstring ("User"); Level: uint32 }:
 *   static int peer_init(void);        registers the provider (0, or prints why not)
 *   static void peer_write(uint32_t);  writes one event with that Level
 *   static int peer_enabled(void);     whether a session enables the event now
 *   static void peer_fini(void);       releases what peer_init took
 *   static inline void peer_loop(char kind, uint64_t n);
 *     n events with Level = i % 20: kind 'w' writes each, 'g' guards each write with the
 *     tracer's enabled check (inline, so the tracer's own check is what is counted).
 * Modes (argv[1]):
 *   loop w|g N        N events (Level = i % 20) through peer_loop after a warm-up of 1,000;
 *                     prints "cpu_ns_per_event X". Under callgrind, count only
 *                     measured_loop (--toggle-collect=measured_loop).
 *   footprint         (waits for an enabling session when PEER_WAIT_ENABLED=1, and
 *                     PEER_SETTLE_MS more) writes one
 *                     event and prints "rss_kb X pss_kb Y" from /proc/self/smaps_rollup.
 *   first-event       re-executes itself; the new image writes its first enabled event and
 *                     prints "first_event_ms X cpu_ms Y": the time from before its exec,
 *                     and the CPU time the new image used until then (all its threads).
 *   record N          waits for an enabling session, writes N events, prints
 *                     "start_ns S end_ns E cpu_ns C" (CLOCK_MONOTONIC, thread CPU time).
 * Every wait for a session is bounded (10 s); a timeout is exit 1 with a message. */
#ifndef PFC_BENCH_PEER_MAIN_H
#define PFC_BENCH_PEER_MAIN_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t peer_clock_ns(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Polls peer_enabled() every 100 µs for at most 10 s. */
static int peer_wait_enabled(void) {
  const uint64_t deadline = peer_clock_ns(CLOCK_MONOTONIC) + 10000000000u;
  while (!peer_enabled()) {
    if (peer_clock_ns(CLOCK_MONOTONIC) > deadline) {
      fprintf(stderr, "peer: no session enabled Example_Event_1 within 10 s\n");
      return 1;
    }
    const struct timespec pause = {0, 100000};
    nanosleep(&pause, NULL);
  }
  return 0;
}

/* PEER_WAIT_ENABLED=1: loop and footprint first wait for an enabling session, then
 * PEER_SETTLE_MS more milliseconds (default 0): pfc's default engine routes with the
 * interpreter until the namespace's native code is swapped in (docs/etw.md "Engine"). */
static int peer_wait_requested(void) {
  const char* v = getenv("PEER_WAIT_ENABLED");
  return v != NULL && strcmp(v, "1") == 0;
}

static int peer_wait_settled(void) {
  if (peer_wait_enabled() != 0) return 1;
  const char* v = getenv("PEER_SETTLE_MS");
  const long ms = v != NULL ? strtol(v, NULL, 10) : 0;
  if (ms > 0) {
    const struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
  }
  return 0;
}

static int peer_parse_count(const char* text, uint64_t* out) {
  char* end = NULL;
  errno = 0;
  const unsigned long long v = strtoull(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || v == 0) {
    fprintf(stderr, "peer: '%s' is not a positive event count\n", text);
    return 1;
  }
  *out = v;
  return 0;
}

/* Not inlined, so callgrind can count exactly this call (the warm-up runs outside it). */
__attribute__((noinline)) static void measured_loop(char kind, uint64_t n) { peer_loop(kind, n); }

static int peer_mode_loop(int argc, char** argv) {
  uint64_t n = 0;
  if (argc != 4 || (argv[2][0] != 'w' && argv[2][0] != 'g') || argv[2][1] != '\0' ||
      peer_parse_count(argv[3], &n) != 0) {
    fprintf(stderr, "usage: %s loop w|g N\n", argv[0]);
    return 2;
  }
  if (peer_wait_requested() && peer_wait_settled() != 0) return 1;
  peer_loop(argv[2][0], 1000); /* warm-up: lazy binding, first-touch pages */
  const uint64_t t0 = peer_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  measured_loop(argv[2][0], n);
  const uint64_t t1 = peer_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  printf("cpu_ns_per_event %.3f\n", (double)(t1 - t0) / (double)n);
  return 0;
}

/* Prints Rss and Pss (kB) of this process. */
static int peer_print_footprint(void) {
  FILE* f = fopen("/proc/self/smaps_rollup", "r");
  if (f == NULL) {
    perror("peer: /proc/self/smaps_rollup");
    return 1;
  }
  char line[256];
  unsigned long rss = 0, pss = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    if (sscanf(line, "Rss: %lu kB", &rss) == 1) continue;
    if (sscanf(line, "Pss: %lu kB", &pss) == 1) continue;
  }
  fclose(f);
  printf("rss_kb %lu pss_kb %lu\n", rss, pss);
  return 0;
}

static int peer_mode_footprint(void) {
  if (peer_wait_requested() && peer_wait_settled() != 0) return 1;
  peer_write(7);
  return peer_print_footprint();
}

static int peer_mode_first_event(int argc, char** argv) {
  if (argc == 2) { /* the parent: take the time, then exec this program's child role */
    char t0[32];
    snprintf(t0, sizeof t0, "%" PRIu64, peer_clock_ns(CLOCK_MONOTONIC));
    char* args[] = {argv[0], argv[1], t0, NULL};
    execv("/proc/self/exe", args);
    perror("peer: exec /proc/self/exe");
    return 1;
  }
  uint64_t t0 = 0;
  if (peer_parse_count(argv[2], &t0) != 0 || peer_wait_enabled() != 0) return 1;
  peer_write(7); /* Level 7 passes the 50 % filter */
  const uint64_t t1 = peer_clock_ns(CLOCK_MONOTONIC);
  const uint64_t cpu = peer_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
  printf("first_event_ms %.3f cpu_ms %.3f\n", (double)(t1 - t0) / 1e6, (double)cpu / 1e6);
  return 0;
}

static int peer_mode_record(int argc, char** argv) {
  uint64_t n = 0;
  if (argc != 3 || peer_parse_count(argv[2], &n) != 0) {
    fprintf(stderr, "usage: %s record N\n", argv[0]);
    return 2;
  }
  if (peer_wait_enabled() != 0) return 1;
  const uint64_t c0 = peer_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  const uint64_t t0 = peer_clock_ns(CLOCK_MONOTONIC);
  peer_loop('w', n);
  const uint64_t t1 = peer_clock_ns(CLOCK_MONOTONIC);
  const uint64_t c1 = peer_clock_ns(CLOCK_THREAD_CPUTIME_ID);
  printf("start_ns %" PRIu64 " end_ns %" PRIu64 " cpu_ns %" PRIu64 "\n", t0, t1, c1 - c0);
  return 0;
}

static int peer_dispatch(int argc, char** argv) {
  if (argc >= 2 && strcmp(argv[1], "loop") == 0) return peer_mode_loop(argc, argv);
  if (argc == 2 && strcmp(argv[1], "footprint") == 0) return peer_mode_footprint();
  if ((argc == 2 || argc == 3) && strcmp(argv[1], "first-event") == 0)
    return peer_mode_first_event(argc, argv);
  if (argc >= 2 && strcmp(argv[1], "record") == 0) return peer_mode_record(argc, argv);
  fprintf(stderr, "usage: %s loop w|g N | footprint | first-event | record N\n", argv[0]);
  return 2;
}

int main(int argc, char** argv) {
  /* first-event's parent role only takes the time and execs: nothing registered yet */
  if (argc == 2 && strcmp(argv[1], "first-event") == 0) return peer_mode_first_event(argc, argv);
  if (peer_init() != 0) return 1;
  const int rc = peer_dispatch(argc, argv);
  fflush(stdout);
  peer_fini();
  return rc;
}

#endif
