/* pipe-run: time one `feeder | reader` pipeline and report each process's own
 * rusage, as the kernel accounted it (wait4), not as a sampler guessed it.
 *
 *   pipe-run [--timeout-ms N] [--pin-feeder CPU] [--pin-reader CPU] [--result-fd FD]
 *            -- FEEDER ARGS... -- READER ARGS...
 *
 * The reader inherits this process's stdout and stderr; the feeder's stdout is
 * the pipe and its stderr is ours. One JSON line goes to the result fd (default 3).
 * Timing lives here rather than in the calling Node process so that its event
 * loop and garbage collector never sit inside a measured interval. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct child {
  pid_t pid;
  int done;
  int status;
  struct rusage usage;
};

static void die(const char *what) {
  fprintf(stderr, "pipe-run: %s: %s\n", what, strerror(errno));
  exit(125);
}

static void usage(void) {
  fprintf(stderr, "usage: pipe-run [--timeout-ms N] [--pin-feeder CPU] [--pin-reader CPU] "
                  "[--result-fd FD] -- FEEDER... -- READER...\n");
  exit(125);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs in the forked child: wire the pipe end, join the pipeline's process group
 * (so a timeout or Ctrl-C can kill every descendant at once), pin, exec. */
static pid_t spawn(char **argv, int in_fd, int out_fd, int close_fd, pid_t group, int cpu,
                   const sigset_t *saved_mask) {
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid > 0) {
    setpgid(pid, group ? group : pid);
    return pid;
  }
  setpgid(0, group);
  sigprocmask(SIG_SETMASK, saved_mask, NULL);
  if (in_fd >= 0 && dup2(in_fd, STDIN_FILENO) < 0) die("dup2");
  if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0) die("dup2");
  close(close_fd);
  if (in_fd > STDERR_FILENO) close(in_fd);
  if (out_fd > STDERR_FILENO) close(out_fd);
  if (cpu >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) < 0) die("sched_setaffinity");
  }
  execvp(argv[0], argv);
  fprintf(stderr, "pipe-run: cannot run %s: %s\n", argv[0], strerror(errno));
  _exit(127);
}

static void print_child(FILE *out, const char *name, const struct child *c) {
  const struct rusage *u = &c->usage;
  fprintf(out,
          "\"%s\":{\"exit\":%d,\"signal\":%d,\"user_us\":%lld,\"sys_us\":%lld,"
          "\"maxrss_kb\":%ld,\"voluntary_cs\":%ld,\"involuntary_cs\":%ld}",
          name, WIFEXITED(c->status) ? WEXITSTATUS(c->status) : -1,
          WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0,
          (long long)u->ru_utime.tv_sec * 1000000 + u->ru_utime.tv_usec,
          (long long)u->ru_stime.tv_sec * 1000000 + u->ru_stime.tv_usec, u->ru_maxrss,
          u->ru_nvcsw, u->ru_nivcsw);
}

int main(int argc, char *argv[]) {
  long timeout_ms = 0;
  int pin_feeder = -1, pin_reader = -1, result_fd = 3;
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
    if (i + 1 >= argc) usage();
    if (strcmp(argv[i], "--timeout-ms") == 0) timeout_ms = atol(argv[i + 1]);
    else if (strcmp(argv[i], "--pin-feeder") == 0) pin_feeder = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--pin-reader") == 0) pin_reader = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--result-fd") == 0) result_fd = atoi(argv[i + 1]);
    else usage();
  }
  if (i >= argc) usage();
  char **feeder_argv = &argv[i + 1];
  int j = i + 1;
  while (j < argc && strcmp(argv[j], "--") != 0) j++;
  if (j >= argc - 1 || j == i + 1) usage();
  argv[j] = NULL;
  char **reader_argv = &argv[j + 1];

  FILE *result = fdopen(result_fd, "w");
  if (result == NULL) die("result fd");
  fcntl(result_fd, F_SETFD, FD_CLOEXEC);

  /* SIGCHLD and the stop signals are taken synchronously with sigtimedwait, so a
   * timeout, a finished child and Ctrl-C are handled in one loop without races. */
  sigset_t wanted, saved;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGCHLD);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGTERM);
  sigaddset(&wanted, SIGHUP);
  sigprocmask(SIG_BLOCK, &wanted, &saved);
  signal(SIGPIPE, SIG_DFL);

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) < 0) die("pipe");

  long long start = now_ns();
  struct child reader = {0}, feeder = {0};
  reader.pid = spawn(reader_argv, fds[0], -1, fds[1], 0, pin_reader, &saved);
  feeder.pid = spawn(feeder_argv, -1, fds[1], fds[0], reader.pid, pin_feeder, &saved);
  close(fds[0]);
  close(fds[1]);

  long long deadline = timeout_ms > 0 ? start + timeout_ms * 1000000LL : 0;
  int timed_out = 0, stopped_by = 0;
  while (!reader.done || !feeder.done) {
    struct timespec wait = {1, 0};
    if (deadline) {
      long long left = deadline - now_ns();
      if (left <= 0) left = 0;
      wait.tv_sec = left / 1000000000LL;
      wait.tv_nsec = left % 1000000000LL;
    }
    int sig = sigtimedwait(&wanted, NULL, &wait);
    if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
      stopped_by = sig;
      kill(-reader.pid, SIGKILL);
    } else if (sig < 0 && errno == EAGAIN && deadline && now_ns() >= deadline && !timed_out) {
      timed_out = 1;
      kill(-reader.pid, SIGKILL);
    }
    struct rusage usage;
    int status;
    pid_t pid;
    while ((pid = wait4(-1, &status, WNOHANG, &usage)) > 0) {
      struct child *c = pid == reader.pid ? &reader : pid == feeder.pid ? &feeder : NULL;
      if (c == NULL) continue;
      c->done = 1;
      c->status = status;
      c->usage = usage;
    }
  }
  long long wall = now_ns() - start;

  fprintf(result, "{\"wall_ns\":%lld,\"timed_out\":%s,\"stopped_by\":%d,", wall,
          timed_out ? "true" : "false", stopped_by);
  print_child(result, "reader", &reader);
  fputc(',', result);
  print_child(result, "feeder", &feeder);
  fputs("}\n", result);
  fclose(result);
  return stopped_by ? 128 + stopped_by : 0;
}
