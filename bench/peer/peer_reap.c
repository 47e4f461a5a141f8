/* bench/peer/peer_reap.c — runs a command as a child subreaper (PR_SET_CHILD_SUBREAPER) and
 * reaps it and every descendant orphaned under it, writing one line per reaped process to
 * OUT: "COMM PID USER_US SYS_US" (wait4's resource usage, which includes the CPU of
 * children that process reaped itself). scripts/bench-lttng runs pfc's recording scenario
 * under it: a file session's host (pfc-trace-host) detaches from the controller that
 * started it, becomes this process's child, and its exact CPU time is what it reports.
 * Orphans still alive 30 s after the command exits are killed (SIGKILL, by PID) and
 * reaped. Exit status: the command's.
 * Usage: peer_reap OUT COMMAND [ARG...] */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The command name of a zombie child, or "?" when it cannot be read. */
static void read_comm(pid_t pid, char* out, size_t size) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
  FILE* f = fopen(path, "r");
  snprintf(out, size, "?");
  if (f == NULL) return;
  if (fgets(out, (int)size, f) != NULL) out[strcspn(out, "\n")] = '\0';
  fclose(f);
}

/* Sends SIGKILL to every live child (after the command exited, those are orphans). */
static void kill_children(void) {
  DIR* d = opendir("/proc");
  if (d == NULL) return;
  struct dirent* e;
  while ((e = readdir(d)) != NULL) {
    char path[300], line[256];
    snprintf(path, sizeof path, "/proc/%s/status", e->d_name);
    FILE* f = fopen(path, "r");
    if (f == NULL) continue;
    while (fgets(line, sizeof line, f) != NULL) {
      int ppid = 0;
      if (sscanf(line, "PPid: %d", &ppid) == 1) {
        if (ppid == (int)getpid()) kill((pid_t)atoi(e->d_name), SIGKILL);
        break;
      }
    }
    fclose(f);
  }
  closedir(d);
}

/* Reaps one exited child (blocking at most until the alarm), logging it to out. Returns its
 * pid, or -1 with errno (ECHILD: none left; EINTR: the alarm). */
static pid_t reap_one(FILE* out, int* status) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (waitid(P_ALL, 0, &info, WEXITED | WNOWAIT) != 0) return -1;
  char comm[64];
  read_comm(info.si_pid, comm, sizeof comm);
  struct rusage ru;
  const pid_t pid = wait4(info.si_pid, status, 0, &ru);
  if (pid > 0)
    fprintf(out, "%s %d %ld %ld\n", comm, (int)pid,
            (long)ru.ru_utime.tv_sec * 1000000L + (long)ru.ru_utime.tv_usec,
            (long)ru.ru_stime.tv_sec * 1000000L + (long)ru.ru_stime.tv_usec);
  return pid;
}

static void on_alarm(int sig) { (void)sig; }

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: peer_reap OUT COMMAND [ARG...]\n");
    return 2;
  }
  FILE* out = fopen(argv[1], "w");
  if (out == NULL) {
    perror(argv[1]);
    return 2;
  }
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
    perror("peer_reap: PR_SET_CHILD_SUBREAPER");
    return 2;
  }
  const pid_t cmd = fork();
  if (cmd < 0) {
    perror("peer_reap: fork");
    return 2;
  }
  if (cmd == 0) {
    execvp(argv[2], argv + 2);
    perror(argv[2]);
    _exit(127);
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm; /* no SA_RESTART: the alarm interrupts waitid */
  sigaction(SIGALRM, &sa, NULL);
  int rc = 1, killed = 0;
  for (;;) {
    int status = 0;
    const pid_t pid = reap_one(out, &status);
    if (pid == cmd) {
      rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      alarm(30); /* orphans get 30 s to finish */
    } else if (pid < 0 && errno == ECHILD) {
      break;
    } else if (pid < 0 && errno == EINTR && !killed) {
      fprintf(stderr, "peer_reap: processes left 30 s after the command exited: killed\n");
      kill_children();
      killed = 1;
      rc = rc == 0 ? 1 : rc;
    }
  }
  fclose(out);
  return rc;
}
