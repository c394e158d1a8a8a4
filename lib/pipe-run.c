/* pipe-run: time one `feeder | reader` pipeline and report each process's own
 * rusage, as the kernel accounted it (wait4), not as a sampler guessed it.
 *
 *   pipe-run [--timeout-ms N] [--pin-feeder CPU] [--pin-reader CPU] [--result-fd FD]
 *            [--parent-pid PID] [--proc-stat FILE] [--cpuidle DIR] [--sample-ms N]
 *            [--sample-below 1] [--policy batch]
 *            -- FEEDER ARGS... -- READER ARGS...
 *
 * SIGUSR1 pauses the pipeline (SIGSTOP to its process group) and SIGUSR2 resumes it:
 * lib/pipeline.js's runAlternating takes turns between two pipelines on one CPU that way.
 *
 * The reader inherits this process's stdout and stderr; the feeder's stdout is
 * the pipe and its stderr is ours. One JSON line goes to the result fd (default 3).
 * Timing lives here rather than in the calling Node process so that its event
 * loop and garbage collector never sit inside a measured interval.
 *
 * Nothing of a run outlives it. pipe-run is the subreaper of the pipeline, so a
 * process the reader leaves behind is re-parented here even if it moved to a
 * session of its own; once reader and feeder have exited (where the clock stops)
 * those are counted ("left_behind": a run that leaves any is not a clean run) and
 * killed. If the caller dies, pipe-run gets SIGHUP and stops the pipeline as on
 * Ctrl-C (--parent-pid names the caller, so that one dead before pipe-run could
 * ask to be told is noticed too); if pipe-run itself is killed, the reader and the
 * feeder get SIGKILL.
 *
 * The VM's steal time is read from /proc/stat (--proc-stat names another file: the
 * tests write one by hand) just before the first fork and just after both children
 * are reaped, so the window is the run's and nothing is read inside it: "steal_ticks"
 * holds each CPU's steal (USER_HZ ticks, "clk_tck" per second) accrued in between,
 * indexed by CPU number; null if the file could not be read.
 *
 * What else ran on the pinned CPUs (the cpuidle tree is --cpuidle DIR's): each
 * one's idle time is read at both ends of the window as well ("cpu_idle"), so that the
 * caller can take the run's own CPU time from the CPUs' busy time (lib/foreign.js). The
 * cpuidle driver's residency counts microseconds, where /proc/stat counts ticks of 10 ms,
 * but it only adds an idle spell once the CPU leaves it: read from another CPU, a spell
 * under way would be missed at one end and counted whole at the other. So pipe-run moves
 * itself onto each measured CPU to read it, which ends any idle spell there. Without
 * cpuidle, where the move is refused, or with dd and the reader on two CPUs, /proc/stat's
 * idle and iowait ticks stand in ("source": "stat"). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
                  "[--result-fd FD] [--proc-stat FILE] [--cpuidle DIR] [--sample-ms N] [--sample-below 1] "
                  "[--policy batch] -- FEEDER... -- READER...\n");
  exit(125);
}

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Runs in the forked child: die with pipe-run, wire the pipe end, join the
 * pipeline's process group (so a timeout or Ctrl-C can kill every descendant at
 * once), pin, set the scheduling policy, exec. With `batch` (--policy batch) both
 * children run at SCHED_BATCH, which the kernel never lets preempt a task on waking:
 * on one CPU the reader then drains the pipe before dd runs, and dd fills it before
 * the reader does, one switch a pipe's worth where the default policy's wake-ups
 * switch every few pages (docs/profile.md). */
static pid_t spawn(char **argv, int in_fd, int out_fd, int close_fd, pid_t group, int cpu,
                   int batch, const sigset_t *saved_mask, pid_t runner) {
  pid_t pid = fork();
  if (pid < 0) die("fork");
  if (pid > 0) {
    setpgid(pid, group ? group : pid);
    return pid;
  }
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0) die("prctl");
  if (getppid() != runner) _exit(125);
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
  struct sched_param param = {0};
  if (batch && sched_setscheduler(0, SCHED_BATCH, &param) < 0) die("sched_setscheduler");
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

/* Per-CPU steal (the 8th value of a `cpuN` line of /proc/stat, man 5 proc) into
 * steal[N]; tells how many slots are filled, or -1 if the file cannot be read. A CPU
 * absent from the file (offline) keeps 0. */
#define MAX_CPUS 1024
static int read_steal(const char *file, unsigned long long steal[MAX_CPUS]) {
  FILE *f = fopen(file, "re");
  if (f == NULL) return -1;
  memset(steal, 0, MAX_CPUS * sizeof *steal);
  int count = 0;
  char line[1024];
  while (fgets(line, sizeof line, f) != NULL) {
    unsigned cpu;
    unsigned long long v[8];
    /* %u would skip the spaces of the all-CPU "cpu  " line and take its first value. */
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9') continue;
    if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
               &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || cpu >= MAX_CPUS)
      continue;
    steal[cpu] = v[7];
    if ((int)cpu + 1 > count) count = (int)cpu + 1;
  }
  fclose(f);
  return count;
}

/* Idle ns of one CPU from /proc/stat (idle + iowait ticks), or -1. */
static long long stat_idle_ns(const char *file, int cpu) {
  FILE *f = fopen(file, "re");
  if (f == NULL) return -1;
  char line[1024];
  long long idle = -1;
  while (fgets(line, sizeof line, f) != NULL) {
    unsigned c;
    unsigned long long v[5];
    if (strncmp(line, "cpu", 3) != 0 || line[3] < '0' || line[3] > '9') continue;
    if (sscanf(line, "cpu%u %llu %llu %llu %llu %llu", &c, &v[0], &v[1], &v[2], &v[3], &v[4]) != 6) continue;
    if ((int)c == cpu) idle = (long long)((v[3] + v[4]) * (1000000000ULL / sysconf(_SC_CLK_TCK)));
  }
  fclose(f);
  return idle;
}

/* Idle ns of one CPU from its cpuidle states' residency (microseconds), or -1. */
static long long cpuidle_ns(const char *root, int cpu) {
  long long total = 0;
  int states = 0;
  for (int state = 0;; state++) {
    char path[256];
    snprintf(path, sizeof path, "%s/cpu%d/cpuidle/state%d/time", root, cpu, state);
    FILE *f = fopen(path, "re");
    if (f == NULL) break;
    unsigned long long us;
    if (fscanf(f, "%llu", &us) == 1) total += (long long)us * 1000;
    fclose(f);
    states++;
  }
  return states ? total : -1;
}

#define MAX_MEASURED 2
struct idle_reading {
  int count;
  int cpus[MAX_MEASURED];
  long long idle_ns[MAX_MEASURED];
  int from_stat; /* any CPU read from /proc/stat's ticks */
};

/* Each measured CPU's idle time, read while running on it (see the header); the
 * caller's own affinity is put back after. A CPU that cannot be read gives -1. */
static void read_idle(struct idle_reading *r, const char *proc_stat, const char *cpuidle_root) {
  /* Apart, each CPU idles at every refill of the pipe, and the idle driver's entry and
   * exit, in neither the processes' time nor the residency, would read as foreign time:
   * /proc/stat counts them as idle. */
  if (r->count > 1) cpuidle_root = "";
  cpu_set_t saved;
  int have_saved = sched_getaffinity(0, sizeof saved, &saved) == 0;
  r->from_stat = 0;
  for (int i = 0; i < r->count; i++) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(r->cpus[i], &one);
    long long ns = -1;
    if (sched_setaffinity(0, sizeof one, &one) == 0 && sched_getcpu() == r->cpus[i])
      ns = cpuidle_ns(cpuidle_root, r->cpus[i]);
    if (ns < 0) {
      ns = stat_idle_ns(proc_stat, r->cpus[i]);
      r->from_stat = 1;
    }
    r->idle_ns[i] = ns;
  }
  if (have_saved) sched_setaffinity(0, sizeof saved, &saved);
}

static void print_idle(FILE *out, const struct idle_reading *before, const struct idle_reading *after) {
  fprintf(out, "\"cpu_idle\":{\"source\":\"%s\",\"cpus\":[", before->from_stat || after->from_stat ? "stat" : "cpuidle");
  for (int i = 0; i < before->count; i++) fprintf(out, "%s%d", i ? "," : "", before->cpus[i]);
  fputs("],\"idle_ns\":[", out);
  for (int i = 0; i < before->count; i++) {
    long long d = before->idle_ns[i] < 0 || after->idle_ns[i] < 0 ? -1 : after->idle_ns[i] - before->idle_ns[i];
    fprintf(out, "%s%lld", i ? "," : "", d);
  }
  fputs("]}", out);
}

/* A small /proc file into text (NUL-terminated), in one read: tells whether it could. */
static int read_proc(const char *path, char *text, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  ssize_t got = read(fd, text, size - 1);
  close(fd);
  if (got <= 0) return 0;
  text[got] = '\0';
  return 1;
}

/* The reader's CPU time (every thread's schedstat, ns) and the bytes the feeder has
 * written into the pipe (/proc/PID/io wchar) every --sample-ms, so that the reader's CPU
 * time per byte can be taken as the slope over the steady middle of one run, start-up
 * and warm-up outside the window (lib/headline.js). The feeder's count, not the reader's
 * rchar: rchar also counts the files a runtime reads as it starts, and nothing of what
 * splice(2) moves, while dd writes nothing but the pipe, which holds at most 64 KiB the
 * reader has not taken yet. pipe-run reads them from its own CPU, not the reader's.
 * Each sample carries its CLOCK_MONOTONIC time, so that two pipelines run side by side
 * can be cut to the span both ran in (experiments/stdio/cost.js). */
struct sample {
  long long cpu_ns, written, at_ns;
};
static struct sample *samples;
static size_t sample_count, sample_cap;

/* The CPU time of the reader's busiest thread at the last sample (ns): a reader whose work
 * is shared between its threads switches between them of itself, so its involuntary
 * switches need not be another task's (wasmer's main thread yields to its tokio workers,
 * lib/foreign.js). Kept by cpu_of as it sums the threads. */
static long long busiest_thread_ns, last_busiest_thread_ns;

/* A process's CPU time (every thread's schedstat, ns), or with `below` its descendants'
 * instead: the children each of its threads lists, theirs, and so on. */
static long long cpu_of(pid_t pid, int below, int depth) {
  char path[96];
  snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
  DIR *dir = opendir(path);
  if (dir == NULL) return 0;
  long long cpu = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] == '.') continue;
    char file[320], text[1024];
    if (!below) {
      snprintf(file, sizeof file, "/proc/%d/task/%s/schedstat", (int)pid, entry->d_name);
      if (!read_proc(file, text, sizeof text)) continue;
      long long thread_ns = strtoll(text, NULL, 10);
      cpu += thread_ns;
      if (thread_ns > busiest_thread_ns) busiest_thread_ns = thread_ns;
      continue;
    }
    snprintf(file, sizeof file, "/proc/%d/task/%s/children", (int)pid, entry->d_name);
    if (depth > 8 || !read_proc(file, text, sizeof text)) continue;
    char *at = text, *end;
    for (long child = strtol(at, &end, 10); end != at; at = end, child = strtol(at, &end, 10))
      cpu += cpu_of((pid_t)child, 0, 0) + cpu_of((pid_t)child, 1, depth + 1);
  }
  closedir(dir);
  return cpu;
}

/* --sample-below 1: the reader is a wrapper (perf record), and its descendants' CPU time,
 * not its own, is the reader's. */
static int sample_below = 0;

static void take_sample(pid_t pid, pid_t feeder) {
  char path[96];
  busiest_thread_ns = 0;
  long long cpu = cpu_of(pid, sample_below, 0);
  /* a descendant reaped takes its CPU time out of the sum: that sample says nothing */
  if (sample_below && sample_count && cpu < samples[sample_count - 1].cpu_ns) return;
  snprintf(path, sizeof path, "/proc/%d/io", (int)feeder);
  char text[512];
  if (!read_proc(path, text, sizeof text)) return;
  char *wchar = strstr(text, "wchar:");
  if (wchar == NULL) return;
  if (sample_count == sample_cap) {
    sample_cap = sample_cap ? 2 * sample_cap : 1024;
    samples = realloc(samples, sample_cap * sizeof *samples);
    if (samples == NULL) die("realloc");
  }
  samples[sample_count].cpu_ns = cpu;
  samples[sample_count].written = strtoll(wchar + 6, NULL, 10);
  samples[sample_count].at_ns = now_ns();
  sample_count++;
  last_busiest_thread_ns = busiest_thread_ns;
}

/* The fields of /proc/PID/stat that place a process in the pipeline's tree. */
struct proc {
  pid_t pid, ppid, pgrp;
  char state;
};

static struct proc *procs;
static size_t procs_cap;

static int by_pid(const void *a, const void *b) {
  pid_t x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;
  return (x > y) - (x < y);
}

/* Every process in /proc, sorted by pid. A process gone between readdir and open is
 * skipped; the command name may hold spaces and ')', so fields are read after the last ')'. */
static size_t list_processes(void) {
  DIR *dir = opendir("/proc");
  if (dir == NULL) die("/proc");
  size_t n = 0;
  struct dirent *entry;
  while ((entry = readdir(dir)) != NULL) {
    char *end;
    long pid = strtol(entry->d_name, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if (!read_proc(path, text, sizeof text)) continue;
    char *paren = strrchr(text, ')');
    struct proc p = {.pid = (pid_t)pid};
    int ppid, pgrp;
    if (paren == NULL || sscanf(paren + 1, " %c %d %d", &p.state, &ppid, &pgrp) != 3) continue;
    p.ppid = ppid;
    p.pgrp = pgrp;
    if (n == procs_cap) {
      procs_cap = procs_cap ? 2 * procs_cap : 256;
      procs = realloc(procs, procs_cap * sizeof *procs);
      if (procs == NULL) die("realloc");
    }
    procs[n++] = p;
  }
  closedir(dir);
  qsort(procs, n, sizeof *procs, by_pid);
  return n;
}

/* Reaps the children that have exited; tells whether any is left. */
static int children_left(void) {
  pid_t got;
  while ((got = waitpid(-1, NULL, WNOHANG)) > 0) {
  }
  return got == 0;
}

/* Live processes below pipe-run: with pipe-run the subreaper, that is everything the
 * pipeline left, whatever session or group it moved to. Members of dying_group were
 * just sent SIGKILL by a timeout or stop and are not counted as left running. Every
 * one descends from a child of pipe-run's, so without children /proc is not read. */
static int count_left_behind(pid_t self, pid_t dying_group) {
  if (!children_left()) return 0;
  size_t n = list_processes();
  char *below = calloc(n ? n : 1, 1);
  if (below == NULL) die("calloc");
  for (int grew = 1; grew;) {
    grew = 0;
    for (size_t i = 0; i < n; i++) {
      if (below[i]) continue;
      struct proc key = {.pid = procs[i].ppid};
      struct proc *parent = bsearch(&key, procs, n, sizeof *procs, by_pid);
      if (procs[i].ppid == self || (parent != NULL && below[parent - procs])) {
        below[i] = 1;
        grew = 1;
      }
    }
  }
  int count = 0;
  for (size_t i = 0; i < n; i++) {
    int dead = procs[i].state == 'Z' || procs[i].state == 'X';
    int dying = dying_group && procs[i].pgrp == dying_group;
    if (below[i] && !dead && !dying) count++;
  }
  free(below);
  return count;
}

/* Kills and reaps pipe-run's children until none is left. Only direct children are
 * killed, whose pids cannot be reused before pipe-run reaps them; each one killed
 * hands its own children to pipe-run, so a tree goes in as many rounds as it is deep. */
static void kill_children(pid_t self) {
  sigset_t child_exit;
  sigemptyset(&child_exit);
  sigaddset(&child_exit, SIGCHLD);
  long long give_up = now_ns() + 5000000000LL;
  while (children_left()) {
    if (now_ns() > give_up) {
      fprintf(stderr, "pipe-run: processes the pipeline left still run after 5 s of SIGKILL\n");
      return;
    }
    size_t n = list_processes();
    for (size_t i = 0; i < n; i++)
      if (procs[i].ppid == self && procs[i].state != 'Z') kill(procs[i].pid, SIGKILL);
    struct timespec pause = {0, 10000000};
    sigtimedwait(&child_exit, NULL, &pause);
  }
}

int main(int argc, char *argv[]) {
  long timeout_ms = 0, sample_ms = 0;
  int pin_feeder = -1, pin_reader = -1, result_fd = 3, batch = 0;
  const char *proc_stat = "/proc/stat";
  const char *cpuidle_root = "/sys/devices/system/cpu";
  pid_t parent = getppid();
  int i = 1;
  for (; i < argc && strcmp(argv[i], "--") != 0; i += 2) {
    if (i + 1 >= argc) usage();
    if (strcmp(argv[i], "--timeout-ms") == 0) timeout_ms = atol(argv[i + 1]);
    else if (strcmp(argv[i], "--pin-feeder") == 0) pin_feeder = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--pin-reader") == 0) pin_reader = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--result-fd") == 0) result_fd = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--parent-pid") == 0) parent = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--proc-stat") == 0) proc_stat = argv[i + 1];
    else if (strcmp(argv[i], "--cpuidle") == 0) cpuidle_root = argv[i + 1];
    else if (strcmp(argv[i], "--sample-ms") == 0) sample_ms = atol(argv[i + 1]);
    else if (strcmp(argv[i], "--sample-below") == 0) sample_below = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--policy") == 0 && strcmp(argv[i + 1], "batch") == 0) batch = 1;
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
  sigaddset(&wanted, SIGUSR1);
  sigaddset(&wanted, SIGUSR2);
  sigprocmask(SIG_BLOCK, &wanted, &saved);
  signal(SIGPIPE, SIG_DFL);

  pid_t self = getpid();
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) die("prctl");
  if (prctl(PR_SET_PDEATHSIG, SIGHUP) < 0) die("prctl");
  if (getppid() != parent) {
    fprintf(stderr, "pipe-run: the caller exited before the pipeline started\n");
    return 125;
  }

  int fds[2];
  if (pipe2(fds, O_CLOEXEC) < 0) die("pipe");

  struct idle_reading idle_before = {0}, idle_after;
  if (pin_feeder >= 0) idle_before.cpus[idle_before.count++] = pin_feeder;
  if (pin_reader >= 0 && pin_reader != pin_feeder) idle_before.cpus[idle_before.count++] = pin_reader;
  if (idle_before.count) read_idle(&idle_before, proc_stat, cpuidle_root);
  static unsigned long long steal_before[MAX_CPUS], steal_after[MAX_CPUS];
  int cpus_before = read_steal(proc_stat, steal_before);
  long long start = now_ns();
  struct child reader = {0}, feeder = {0};
  reader.pid = spawn(reader_argv, fds[0], -1, fds[1], 0, pin_reader, batch, &saved, self);
  feeder.pid = spawn(feeder_argv, -1, fds[1], fds[0], reader.pid, pin_feeder, batch, &saved, self);
  close(fds[0]);
  close(fds[1]);

  long long deadline = timeout_ms > 0 ? start + timeout_ms * 1000000LL : 0;
  int timed_out = 0, stopped_by = 0, paused = 0;
  long long next_sample = sample_ms > 0 ? start + sample_ms * 1000000LL : 0;
  while (!reader.done || !feeder.done) {
    long long until = deadline ? deadline : now_ns() + 1000000000LL;
    if (next_sample && !reader.done && next_sample < until) until = next_sample;
    long long left = until - now_ns();
    if (left <= 0) left = 0;
    struct timespec wait = {left / 1000000000LL, left % 1000000000LL};
    int sig = sigtimedwait(&wanted, NULL, &wait);
    if (sig == SIGUSR1 || sig == SIGUSR2) {
      paused = sig == SIGUSR1;
      kill(-reader.pid, paused ? SIGSTOP : SIGCONT);
    }
    /* a paused pipeline makes no progress: its samples would only repeat the last */
    if (next_sample && !reader.done && !feeder.done && now_ns() >= next_sample) {
      if (!paused) take_sample(reader.pid, feeder.pid);
      while (next_sample <= now_ns()) next_sample += sample_ms * 1000000LL;
    }
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
  int cpus_after = cpus_before < 0 ? -1 : read_steal(proc_stat, steal_after);
  idle_after = idle_before;
  if (idle_before.count) read_idle(&idle_after, proc_stat, cpuidle_root);

  /* After the clock: whatever reader and feeder left, until none of it runs. It is
   * counted first, and before the result is written: a caller that died makes that
   * write raise SIGPIPE. */
  int left_behind = count_left_behind(self, timed_out || stopped_by ? reader.pid : 0);
  kill_children(self);

  fprintf(result, "{\"wall_ns\":%lld,\"timed_out\":%s,\"stopped_by\":%d,\"left_behind\":%d,",
          wall, timed_out ? "true" : "false", stopped_by, left_behind);
  if (cpus_after < 0) {
    fputs("\"steal_ticks\":null,", result);
  } else {
    /* A CPU that went offline in between reads 0 after: no negative deltas. */
    int cpus = cpus_after > cpus_before ? cpus_after : cpus_before;
    fputs("\"steal_ticks\":[", result);
    for (int c = 0; c < cpus; c++) {
      unsigned long long d = steal_after[c] > steal_before[c] ? steal_after[c] - steal_before[c] : 0;
      fprintf(result, "%s%llu", c ? "," : "", d);
    }
    fprintf(result, "],\"clk_tck\":%ld,", sysconf(_SC_CLK_TCK));
  }
  if (idle_before.count) {
    print_idle(result, &idle_before, &idle_after);
    fputc(',', result);
  }
  if (sample_ms > 0) {
    fputs("\"samples\":[", result);
    for (size_t k = 0; k < sample_count; k++)
      fprintf(result, "%s[%lld,%lld,%lld]", k ? "," : "", samples[k].cpu_ns, samples[k].written,
              samples[k].at_ns);
    fprintf(result, "],\"busiest_thread_ns\":%lld,", last_busiest_thread_ns);
  }
  print_child(result, "reader", &reader);
  fputc(',', result);
  print_child(result, "feeder", &feeder);
  fputs("}\n", result);
  fclose(result);
  return stopped_by ? 128 + stopped_by : 0;
}
