/* sysprof: count and time every syscall of a process tree from the kernel
 * (lib/sysprof.bpf.c), at full speed, where strace stops each call twice.
 *
 *   sysprof --check
 *   sysprof [--fd N] --out FILE -- COMMAND ARGS...
 *   sysprof [--fd N] --out FILE --pid PID [--pid PID ...]
 *
 * --check loads and attaches the probes, detaches them and says "ok": whether BPF is
 * allowed here, asked once before a run plans its passes.
 * With a command, sysprof runs it (holding it until every probe is attached), traces it
 * and its children, passes SIGINT, SIGTERM and SIGHUP on to it, and ends as it ended:
 * its exit status, or killed by its signal.
 * With --pid, it traces those processes, the children they have and those they will
 * have, prints "ready" once attached, and stops at SIGINT, SIGTERM or SIGHUP: the window is the
 * caller's (a server's, under load).
 * Either way, one JSON document goes to --out at the end (lib/sysprof.js reads it).
 * --fd N tells the read family's calls on fd N apart from the rest (stdin's: 0).
 *
 * Nothing outlives it: the probes are attached through links that belong to this
 * process, and the kernel detaches them when it exits, however it exits; with --pid it
 * ends when its caller does.
 * When BPF is refused, one line on stderr says why and how to allow it, and the exit
 * status is REFUSED, before any command runs. */
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define REFUSED 97

struct stat_key { __u32 tgid, tid, nr, flags; };
struct stat_value { __u64 count, errors, on_cpu_ns, wall_ns, switches; };
struct hist_key { __u32 tgid, tid, nr, flags, bucket; };

static const char *PROGRAMS[] = { "sysprof_enter", "sysprof_exit", "sysprof_switch", "sysprof_fork" };
#define PROGRAM_COUNT (sizeof PROGRAMS / sizeof PROGRAMS[0])

/* libbpf's own messages, kept for the one line of a refusal */
static char libbpf_said[512];

static int keep_libbpf_message(enum libbpf_print_level level, const char *format, va_list args) {
  if (level == LIBBPF_DEBUG) return 0;
  char line[512];
  vsnprintf(line, sizeof line, format, args);
  line[strcspn(line, "\n")] = 0;
  if (line[0]) snprintf(libbpf_said, sizeof libbpf_said, "%s", line);
  return 0;
}

static void refuse(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  fputs("sysprof: ", stderr);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  va_end(args);
  exit(REFUSED);
}

static const char *ALLOW = "run as root, or in Docker with --cap-add BPF --cap-add PERFMON";

/* Why loading or attaching failed, with the fix, from the errno libbpf left */
static void refuse_bpf(const char *what, int err) {
  if (err < 0) err = -err;
  if (err == EPERM || err == EACCES) {
    refuse("BPF refused while %s (%s): %s", what, strerror(err), ALLOW);
  }
  /* not a permission: a kernel or machine without what the probes use (task storage from
     Linux 5.11, tp_btf, the namespace's pids; x86-64's registers for a call's arguments) */
  refuse("%s failed (%s%s%s): the kernel pass needs x86-64 and Linux 5.11 or later with BTF; "
         "elsewhere give --no-kernel", what, strerror(err), libbpf_said[0] ? "; libbpf: " : "",
         libbpf_said);
}

static const char *object_path(const char *self) {
  static char path[PATH_MAX];
  const char *given = getenv("SYSPROF_OBJECT");
  if (given) return given;
  char exe[PATH_MAX - 32];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n < 0) return self;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (slash) *slash = 0;
  snprintf(path, sizeof path, "%s/sysprof.bpf.o", exe);
  return path;
}

static struct bpf_object *object;
static struct bpf_link *links[PROGRAM_COUNT];

static void load(const char *self, int watch_fd) {
  libbpf_set_print(keep_libbpf_message);
  /* The probes know each process by its pid in this process's PID namespace, a
   * container's own or the host's: the pids this process names and reads back. */
  struct stat pid_namespace;
  if (stat("/proc/self/ns/pid", &pid_namespace) != 0) {
    refuse("cannot read /proc/self/ns/pid (%s): mount /proc; strace's profiles still run",
           strerror(errno));
  }
  if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
    refuse("the kernel exposes no BTF (/sys/kernel/btf/vmlinux): "
           "it needs CONFIG_DEBUG_INFO_BTF=y; strace's profiles still run");
  }
  const char *path = object_path(self);
  object = bpf_object__open_file(path, NULL);
  if (!object) refuse("cannot open %s: %s (run make)", path, strerror(errno));
  struct bpf_map *rodata = bpf_object__find_map_by_name(object, ".rodata");
  if (!rodata) refuse("%s has no .rodata: rebuild it with make", path);
  /* sysprof.bpf.c's struct config, its only constant */
  struct {
    long watch_fd, read_nr, readv_nr, pread_nr, splice_nr;
    __u64 pidns_dev, pidns_ino;
  } config = {
    watch_fd, SYS_read, SYS_readv, SYS_pread64, SYS_splice,
    pid_namespace.st_dev, pid_namespace.st_ino
  };
  size_t size;
  if (!bpf_map__initial_value(rodata, &size) || size != sizeof config ||
      bpf_map__set_initial_value(rodata, &config, sizeof config)) {
    refuse("%s: unexpected .rodata; rebuild it with make", path);
  }
  int err = bpf_object__load(object);
  if (err) refuse_bpf("loading the probes", err);
}

/* After load and after `traced` holds the processes to trace: a task's first call
 * decides whether it is traced, once (sysprof.bpf.c). */
static void attach(void) {
  const char *path = bpf_object__name(object);
  for (size_t i = 0; i < PROGRAM_COUNT; i++) {
    struct bpf_program *program = bpf_object__find_program_by_name(object, PROGRAMS[i]);
    if (!program) refuse("%s lacks %s: rebuild it with make", path, PROGRAMS[i]);
    links[i] = bpf_program__attach(program);
    if (!links[i]) {
      char what[64];
      snprintf(what, sizeof what, "attaching %s", PROGRAMS[i]);
      refuse_bpf(what, errno);
    }
  }
}

/* The window's end: no probe counts once it is over, so that the counts and the
 * distribution written after it come from one window and hold no call made after the stop
 * (a review: histogram totals exceeded the counts by calls made while they were read). */
static void detach(void) {
  for (size_t i = 0; i < PROGRAM_COUNT; i++) {
    bpf_link__destroy(links[i]);
    links[i] = NULL;
  }
}

static int map_fd(const char *name) {
  return bpf_map__fd(bpf_object__find_map_by_name(object, name));
}

static void trace_pid(pid_t pid) {
  __u32 key = pid, zero = 0;
  __u8 yes = 1;
  __u64 generation = 0;
  bpf_map_lookup_elem(map_fd("generation"), &zero, &generation);
  generation += 1;
  if (bpf_map_update_elem(map_fd("traced"), &key, &yes, BPF_ANY) ||
      bpf_map_update_elem(map_fd("generation"), &zero, &generation, BPF_ANY)) {
    fprintf(stderr, "sysprof: cannot trace %d: %s\n", pid, strerror(errno));
    exit(1);
  }
}

/* A process given by --pid, and every descendant it has now: those it forks later are
 * added by the fork probe. */
static void trace_tree(pid_t pid) {
  trace_pid(pid);
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/task/%d/children", pid, pid);
  FILE *file = fopen(path, "r");
  if (!file) return;
  int child;
  while (fscanf(file, "%d", &child) == 1) trace_tree(child);
  fclose(file);
}

/* The signals that stop sysprof: on_signal takes them. */
static const int STOP_SIGNALS[] = { SIGINT, SIGTERM, SIGHUP };
#define STOP_SIGNAL_COUNT (sizeof STOP_SIGNALS / sizeof *STOP_SIGNALS)

static sigset_t stop_set(void) {
  sigset_t set;
  sigemptyset(&set);
  for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++) sigaddset(&set, STOP_SIGNALS[i]);
  return set;
}

/* fork(2) for a child that waits on a pipe before it works. It would inherit on_signal and
 * take a stop signal as its own: its read cut short, it exits, and a SIGINT meant for the
 * command was lost while the command ran on (a review, 2026-12-07). The stop signals are held
 * back over the fork, and the child sets them to `disposition` before it takes any: the
 * command's default, so that a signal sysprof passes on ends it as it ends the command; the
 * calibration child ignores them, sysprof's to handle. */
static pid_t fork_held(void (*disposition)(int)) {
  sigset_t stops = stop_set(), before;
  sigprocmask(SIG_BLOCK, &stops, &before);
  pid_t pid = fork();
  if (pid == 0)
    for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++) signal(STOP_SIGNALS[i], disposition);
  sigprocmask(SIG_SETMASK, &before, NULL);
  return pid;
}

/* The probes' own share of a call's time: a child of sysprof's makes CALIBRATION_CALLS
 * getppid(2)s under them, on sysprof's CPU, before the command starts or the window
 * opens. getppid does next to nothing between sys_enter and sys_exit, so its time there
 * is what the probes add to every call's (lib/sysprof.js takes its median off). */
#define CALIBRATION_CALLS 20000

static pid_t calibrate(void) {
  int go[2];
  if (pipe2(go, O_CLOEXEC)) { perror("sysprof: pipe"); exit(1); }
  pid_t pid = fork_held(SIG_IGN);
  if (pid < 0) { perror("sysprof: fork"); exit(1); }
  if (pid == 0) {
    char byte;
    close(go[1]);
    if (read(go[0], &byte, 1) != 1) _exit(1);
    for (int i = 0; i < CALIBRATION_CALLS; i++) syscall(SYS_getppid);
    _exit(0);
  }
  close(go[0]);
  trace_pid(pid);
  if (write(go[1], "", 1) != 1) { perror("sysprof: calibrate"); exit(1); }
  close(go[1]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "sysprof: the calibration child failed\n");
    exit(1);
  }
  return pid;
}

static __u64 now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (__u64)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* The command's own CPU time (wait4's, its children's included), without sysprof's: the
 * probes' load and calibration are not the command's cost. -1 in --pid mode. */
static long long command_cpu_ns = -1;

static void write_json(FILE *out, int watch_fd, pid_t calibrator, __u64 started, __u64 ended) {
  __u32 zero = 0;
  __u64 lost = 0;
  bpf_map_lookup_elem(map_fd("lost"), &zero, &lost);
  fprintf(out, "{\"tool\":\"sysprof\",\"version\":1,\"watchFd\":%d,\"lost\":%llu,"
          "\"windowNs\":%llu,\"commandCpuNs\":%lld,"
          "\"calibration\":{\"tgid\":%d,\"nr\":%ld,\"calls\":%d},\n\"stats\":[",
          watch_fd, (unsigned long long)lost, (unsigned long long)(ended - started),
          command_cpu_ns, calibrator, (long)SYS_getppid, CALIBRATION_CALLS);
  int stats = map_fd("stats"), names = map_fd("names");
  struct stat_key key, next;
  const char *sep = "";
  void *previous = NULL;
  while (bpf_map_get_next_key(stats, previous, &next) == 0) {
    struct stat_value v;
    if (bpf_map_lookup_elem(stats, &next, &v) == 0) {
      char comm[17] = { 0 };
      bpf_map_lookup_elem(names, &next.tid, comm);
      for (char *c = comm; *c; c++) if (*c == '"' || *c == '\\' || *c < ' ') *c = '?';
      fprintf(out, "%s\n{\"tgid\":%u,\"tid\":%u,\"comm\":\"%s\",\"nr\":%u,\"watchedFd\":%s,"
              "\"count\":%llu,\"errors\":%llu,\"onCpuNs\":%llu,\"wallNs\":%llu,\"switches\":%llu}",
              sep, next.tgid, next.tid, comm, next.nr, next.flags ? "true" : "false",
              (unsigned long long)v.count, (unsigned long long)v.errors,
              (unsigned long long)v.on_cpu_ns, (unsigned long long)v.wall_ns,
              (unsigned long long)v.switches);
      sep = ",";
    }
    key = next;
    previous = &key;
  }
  fputs("],\n\"histograms\":[", out);
  int hist = map_fd("hist");
  struct hist_key hkey, hnext;
  sep = "";
  previous = NULL;
  while (bpf_map_get_next_key(hist, previous, &hnext) == 0) {
    __u64 n;
    if (bpf_map_lookup_elem(hist, &hnext, &n) == 0) {
      fprintf(out, "%s\n[%u,%u,%u,%u,%u,%llu]", sep, hnext.tgid, hnext.tid, hnext.nr,
              hnext.flags, hnext.bucket, (unsigned long long)n);
      sep = ",";
    }
    hkey = hnext;
    previous = &hkey;
  }
  fputs("]}\n", out);
}

static volatile sig_atomic_t stop_signal;
/* read by on_signal: stored whole and in order before the test of stop_signal after it */
static volatile sig_atomic_t child_pid;

static void on_signal(int sig) {
  if (child_pid > 0) kill(child_pid, sig);
  else stop_signal = sig;
}

static void usage(FILE *to) {
  fputs("usage: sysprof --check\n"
        "       sysprof [--fd N] --out FILE -- COMMAND ARGS...\n"
        "       sysprof [--fd N] --out FILE --pid PID [--pid PID ...]\n"
        "Counts and times every syscall of a process tree from the kernel (eBPF).\n", to);
}

int main(int argc, char **argv) {
  int watch_fd = -1, check = 0, npids = 0;
  pid_t pids[64];
  const char *out_path = NULL;
  char **command = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) { usage(stdout); return 0; }
    else if (!strcmp(argv[i], "--check")) check = 1;
    else if (!strcmp(argv[i], "--fd") && i + 1 < argc) watch_fd = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_path = argv[++i];
    else if (!strcmp(argv[i], "--pid") && i + 1 < argc && npids < 64) pids[npids++] = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--") && i + 1 < argc) { command = argv + i + 1; break; }
    else {
      fprintf(stderr, "sysprof: unknown or incomplete argument '%s' (see sysprof --help)\n", argv[i]);
      return 2;
    }
  }
  if (check) {
    load(argv[0], watch_fd);
    attach();
    puts("ok");
    return 0;
  }
  if (!out_path || (!command) == (npids == 0)) {
    usage(stderr);
    return 2;
  }
  FILE *out = fopen(out_path, "w");
  if (!out) {
    fprintf(stderr, "sysprof: cannot write %s: %s\n", out_path, strerror(errno));
    return 2;
  }
  struct sigaction action = { .sa_handler = on_signal };
  for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++) sigaction(STOP_SIGNALS[i], &action, NULL);
  if (npids) {
    /* a window whose caller dies is over: nothing is left attached for want of a SIGINT */
    pid_t caller = getppid();
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != caller) return 1;
    load(argv[0], watch_fd);
    for (int i = 0; i < npids; i++) trace_tree(pids[i]);
    attach();
    pid_t calibrator = calibrate();
    __u64 started = now_ns();
    /* held back between the test and the wait, so that a signal between them is not lost
     * to a pause(2) that would wait for another */
    sigset_t stops = stop_set(), open;
    sigprocmask(SIG_BLOCK, &stops, &open);
    puts("ready");
    fflush(stdout);
    while (!stop_signal) sigsuspend(&open);
    __u64 ended = now_ns();
    detach();
    write_json(out, watch_fd, calibrator, started, ended);
    return fclose(out) ? 1 : 0;
  }
  /* The command waits on a pipe until every probe is attached, so its first call is
   * counted; if sysprof stops first, the command reads the end of the pipe and exits. */
  int go[2];
  if (pipe2(go, O_CLOEXEC)) { perror("sysprof: pipe"); return 1; }
  pid_t pid = fork_held(SIG_DFL);
  if (pid < 0) { perror("sysprof: fork"); return 1; }
  if (pid == 0) {
    char byte;
    close(go[1]);
    if (read(go[0], &byte, 1) != 1) _exit(127);
    execvp(command[0], command);
    fprintf(stderr, "sysprof: cannot run %s: %s\n", command[0], strerror(errno));
    _exit(127);
  }
  close(go[0]);
  load(argv[0], watch_fd);
  trace_pid(pid);
  attach();
  pid_t calibrator = calibrate();
  child_pid = pid;
  if (stop_signal) kill(pid, stop_signal);
  __u64 started = now_ns();
  /* A command stopped before it starts is not started: the signal passed on ends it. One
   * that a signal ends meanwhile has closed the pipe, which is no reason for sysprof to die
   * of SIGPIPE: its status says how it ended. */
  signal(SIGPIPE, SIG_IGN);
  if (!stop_signal && write(go[1], "", 1) != 1 && errno != EPIPE) perror("sysprof: start");
  close(go[1]);
  int status;
  struct rusage usage;
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {}
  command_cpu_ns = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000ll +
                   (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000ll;
  __u64 ended = now_ns();
  detach();
  write_json(out, watch_fd, calibrator, started, ended);
  if (fclose(out)) return 1;
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
