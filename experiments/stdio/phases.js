'use strict'
// The stdio experiment's phases, as its steps and the log's records name them.
const PHASES = {
  startup: 'startup',
  timing: 'timing',
  // --marginal's runs of a quarter of the bytes
  timingQuarter: 'timing-quarter',
  // the headline's pass (experiments/stdio/cost.js)
  cost: 'cost',
  // the fast-path check of each fastest reader (experiments/stdio/fastpath.js)
  fastPath: 'fastpath',
  // the kernel pass (experiments/stdio/kernel.js): each read timed by eBPF probes, and C
  // untraced beside it, for the probes' own cost
  kernel: 'kernel',
  kernelUntraced: 'kernel-untraced',
  strace: 'strace',
  gc: 'gc',
  // the profile pass (experiments/stdio/profile.js): each reader under perf, and unprofiled
  // beside it in the same placement, for the CPU per read its samples' shares divide
  profile: 'profile',
  profileCpu: 'profile-cpu'
}

// the profile pass's two runs, which share its placement and its bytes
const PROFILE_PHASES = [PHASES.profile, PHASES.profileCpu]

// The cost pass's quarter runs, which only runs logged before 2026-11-25 hold: derived as
// they were measured (experiments/stdio/cost.js).
const QUARTER_PHASE = 'cost-quarter'

// Every phase a stdio log may hold, today's steps' and older runs'.
const LOGGED_PHASES = [...Object.values(PHASES), QUARTER_PHASE]

module.exports = { PHASES, PROFILE_PHASES, QUARTER_PHASE, LOGGED_PHASES }
