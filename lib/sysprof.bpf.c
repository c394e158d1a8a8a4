/* sysprof.bpf.c: the kernel half of the lab's syscall profiler (lib/sysprof.c loads it).
 *
 * It counts every syscall of a process tree, per thread, and times each one from
 * sys_enter to sys_exit twice: on the wall, and on the CPU, without the spells the thread
 * spent switched out inside the call (sched_switch). A read that sleeps until dd writes
 * is a longer read on the wall, not a costlier one on the CPU.
 *
 * Everything is aggregated here, in maps, and nothing is sent per event: a ring buffer
 * at a million reads a second would cost more than the count it carries, and could drop
 * events. A map that is full is the only way to lose one; each loss is counted in `lost`,
 * and a profile with a loss is never reported as complete.
 *
 * BTF-typed tracepoints (tp_btf) need no tracefs and no kernel headers: the one kernel
 * structure read here is declared with only the field used, and libbpf relocates it
 * against /sys/kernel/btf/vmlinux at load time (CO-RE). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

/* x86-64's: a syscall's first argument is in rdi (read directly: a tp_btf argument is a
 * typed kernel pointer) */
struct pt_regs {
  unsigned long di;
} __attribute__((preserve_access_index));

/* only ever pointed to: a task's ids come from bpf_get_ns_current_pid_tgid */
struct task_struct;

/* Set by the loader before load: the fd whose reads are told apart (-1: none), and the
 * numbers on this architecture of the calls that read it (splice's first argument is the
 * fd it reads too), so that nothing here is x86's alone; and the loader's PID namespace
 * (its nsfs device and inode), whose pids are the ones it names and reads back. In a
 * container's namespace of its own they are not the kernel's, so every pid here is the
 * one that namespace gives (on a host the two are the same). */
struct config {
  long watch_fd;
  long read_nr;
  long readv_nr;
  long pread_nr;
  long splice_nr;
  __u64 pidns_dev;
  __u64 pidns_ino;
};
const volatile struct config config = { -1, -1, -1, -1, -1, 0, 0 };

/* a call's class: on the watched fd, or not */
#define ON_WATCHED_FD 1

#define UNKNOWN 0
#define TRACED 1
#define NOT_TRACED 2

struct in_call {
  __u64 generation;
  __u64 entered;
  __u64 switched_out;
  __u64 off_cpu;
  __u32 nr;
  __u32 flags;
  __u32 switches;
  __u32 traced;
  /* the task's process and thread ids in the loader's namespace; tid 0 until known */
  __u32 tgid;
  __u32 tid;
};

struct stat_key {
  __u32 tgid;
  __u32 tid;
  __u32 nr;
  __u32 flags;
};

struct stat_value {
  __u64 count;
  __u64 errors;
  __u64 on_cpu_ns;
  __u64 wall_ns;
  __u64 switches;
};

struct hist_key {
  __u32 tgid;
  __u32 tid;
  __u32 nr;
  __u32 flags;
  __u32 bucket;
};

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __type(key, __u32);
  __type(value, __u8);
} traced SEC(".maps");

/* Each task's state, in the task itself (task storage): no hashing on the hot path. A
 * task is looked up in `traced` once, at its first call, and its answer kept here. */
struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct in_call);
} calls SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __type(key, struct stat_key);
  __type(value, struct stat_value);
} stats SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 262144);
  __type(key, struct hist_key);
  __type(value, __u64);
} hist SEC(".maps");

/* each thread's name, from its first call */
struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __type(key, __u32);
  __type(value, char[16]);
} names SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u64);
} lost SEC(".maps");

/* Bumped by the loader each time it adds a process to `traced`: a task's answer, kept in
 * its storage, is asked again once the generation it was asked in has passed, so that a
 * process added after its first call (the calibration child, a --pid) is not missed. */
struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, __u64);
} generation SEC(".maps");

static void count_loss(void) {
  __u32 zero = 0;
  __u64 *n = bpf_map_lookup_elem(&lost, &zero);
  if (n) __sync_fetch_and_add(n, 1);
}

/* Log-linear buckets: exact below 16 ns, then 16 per power of two (1/16 of an octave,
 * under 6.25% wide); lib/sysprof.js turns a bucket back into its bounds. */
static __u32 bucket_of(__u64 v) {
  if (v < 16) return v;
  __u32 e = 0;
  __u64 x = v;
  if (x >> 32) { x >>= 32; e += 32; }
  if (x >> 16) { x >>= 16; e += 16; }
  if (x >> 8) { x >>= 8; e += 8; }
  if (x >> 4) { x >>= 4; e += 4; }
  if (x >> 2) { x >>= 2; e += 2; }
  if (x >> 1) { e += 1; }
  return e * 16 + ((v >> (e - 4)) & 15);
}

/* The current task's ids in the loader's PID namespace; non-zero for a task outside it,
 * which the loader cannot have named. */
static int namespace_ids(__u32 *tgid, __u32 *tid) {
  struct bpf_pidns_info ids = {};
  if (bpf_get_ns_current_pid_tgid(config.pidns_dev, config.pidns_ino, &ids, sizeof ids)) return -1;
  *tgid = ids.tgid;
  *tid = ids.pid;
  return 0;
}

static int is_read(long nr) {
  return nr == config.read_nr || nr == config.readv_nr || nr == config.pread_nr ||
         nr == config.splice_nr;
}

SEC("tp_btf/sys_enter")
int BPF_PROG(sysprof_enter, struct pt_regs *regs, long id) {
  struct task_struct *task = bpf_get_current_task_btf();
  struct in_call *call = bpf_task_storage_get(&calls, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (!call) {
    count_loss();
    return 0;
  }
  __u32 zero = 0;
  __u64 *now_generation = bpf_map_lookup_elem(&generation, &zero);
  __u64 current = now_generation ? *now_generation : 0;
  if (call->traced == UNKNOWN || (call->traced == NOT_TRACED && call->generation != current)) {
    __u32 tgid, tid;
    int named = namespace_ids(&tgid, &tid) == 0 && bpf_map_lookup_elem(&traced, &tgid);
    call->traced = named ? TRACED : NOT_TRACED;
    call->generation = current;
    if (named) {
      call->tgid = tgid;
      call->tid = tid;
    }
  }
  if (call->traced != TRACED) return 0;
  /* A child that sysprof_fork marked, at its first call: its ids, and its process traced
   * by them, so that what it forks is traced in turn. */
  if (!call->tid) {
    if (namespace_ids(&call->tgid, &call->tid)) {
      call->traced = NOT_TRACED;
      return 0;
    }
    __u8 yes = 1;
    if (!bpf_map_lookup_elem(&traced, &call->tgid) &&
        bpf_map_update_elem(&traced, &call->tgid, &yes, BPF_ANY)) count_loss();
  }
  call->nr = id;
  call->flags = 0;
  if (config.watch_fd >= 0 && is_read(id) && (long)regs->di == config.watch_fd) {
    call->flags = ON_WATCHED_FD;
  }
  call->switched_out = 0;
  call->off_cpu = 0;
  call->switches = 0;
  call->entered = bpf_ktime_get_ns();
  return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sysprof_exit, struct pt_regs *regs, long ret) {
  __u64 now = bpf_ktime_get_ns();
  struct in_call *call = bpf_task_storage_get(&calls, bpf_get_current_task_btf(), 0, 0);
  if (!call || !call->entered) return 0;
  __u32 tgid = call->tgid, tid = call->tid;
  __u64 wall = now - call->entered;
  __u64 on_cpu = wall > call->off_cpu ? wall - call->off_cpu : 0;
  struct stat_key key = { .tgid = tgid, .tid = tid, .nr = call->nr, .flags = call->flags };
  struct stat_value *value = bpf_map_lookup_elem(&stats, &key);
  if (!value) {
    struct stat_value fresh = {};
    if (bpf_map_update_elem(&stats, &key, &fresh, BPF_NOEXIST) == 0) {
      char comm[16];
      bpf_get_current_comm(comm, sizeof comm);
      bpf_map_update_elem(&names, &tid, comm, BPF_ANY);
    }
    value = bpf_map_lookup_elem(&stats, &key);
  }
  /* A thread's entries are written by that thread alone, one call at a time: plain
   * adds, where atomic ones would cost more than the rest of the probe. */
  if (value) {
    value->count += 1;
    if (ret < 0) value->errors += 1;
    value->on_cpu_ns += on_cpu;
    value->wall_ns += wall;
    value->switches += call->switches;
  } else {
    count_loss();
  }
  struct hist_key bucket = {
    .tgid = tgid, .tid = tid, .nr = call->nr, .flags = call->flags, .bucket = bucket_of(on_cpu)
  };
  __u64 *n = bpf_map_lookup_elem(&hist, &bucket);
  __u64 one = 1;
  if (n) *n += 1;
  else if (bpf_map_update_elem(&hist, &bucket, &one, BPF_NOEXIST)) count_loss();
  call->entered = 0;
  return 0;
}

/* Every switch on the machine passes here; only a traced thread inside a call has an
 * entry in `calls` with `entered` set, so the rest cost one lookup each. */
SEC("tp_btf/sched_switch")
int BPF_PROG(sysprof_switch, _Bool preempt, struct task_struct *prev, struct task_struct *next) {
  __u64 now = bpf_ktime_get_ns();
  struct in_call *out = bpf_task_storage_get(&calls, prev, 0, 0);
  if (out && out->entered) {
    out->switched_out = now;
    out->switches += 1;
  }
  struct in_call *in = bpf_task_storage_get(&calls, next, 0, 0);
  if (in && in->entered && in->switched_out) {
    in->off_cpu += now - in->switched_out;
    in->switched_out = 0;
  }
  return 0;
}

/* A traced process's children are traced too: servers' workers, postgres's backends.
 * This runs in the parent; the child's ids in the loader's namespace are taken at its
 * first call (sysprof_enter), which also puts its process in `traced` for its own
 * children: a process makes a call before it can fork. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(sysprof_fork, struct task_struct *parent, struct task_struct *child) {
  __u32 parent_tgid, parent_tid;
  if (namespace_ids(&parent_tgid, &parent_tid)) return 0;
  if (!bpf_map_lookup_elem(&traced, &parent_tgid)) return 0;
  struct in_call *call = bpf_task_storage_get(&calls, child, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (call) call->traced = TRACED;
  else count_loss();
  return 0;
}

char LICENSE[] SEC("license") = "GPL";
