'use strict'
// The VM's steal time: how much of the time a run was measured the hypervisor ran
// something else on the CPUs the run used. build/pipe-run reads /proc/stat's per-CPU
// steal just before its first fork and just after both children are reaped, and
// reports what each CPU accrued in between (steal_ticks, in USER_HZ ticks of
// 1/clk_tck s); here that becomes the run's record and a cell's share.
//
// The share is steal over wall time times the CPUs counted, not over the reader's CPU
// time: steal is accounted per virtual CPU, for every moment it wanted to run and the
// host did not let it, whoever it would have run (the reader, dd, the kernel waking
// one for the other). A run loses that time from its wall clock whatever the reader
// was doing; against the reader's CPU time a reader that mostly waits would look
// robbed of more than it had. Steal of CPUs the run did not use cannot slow it, so
// with --pin only the reader's and dd's CPUs count; without pinning the run may be on
// any, so all count, and the share is the average over them.
//
// A tick is 10 ms (USER_HZ 100): one tick on a 100 ms run on 2 CPUs is already 5%, so
// a single run's share is coarse; the flag is decided on the cell, the steal of all its
// runs over the sum of their wall times, never on one run.

// A cell whose runs lost more than this share of their CPUs' time is flagged `steal`.
// The lab's VM's /proc/stat showed steal of about 0.2% of all CPU time since boot (its
// background). 2% is ten times that, and several ticks even on a short cell (10 runs
// of 100 ms on 2 CPUs: one tick is 0.5%): a neighbour that takes it has taken enough
// to move a share of C by about as much, the size of the differences the report ranks.
const STEAL_SHARE = 0.02

// One run's steal for its record: the CPUs that matter (pin: { feeder, reader }, or
// null for all of them) and their ticks; null when pipe-run could not read /proc/stat.
function runSteal (stealTicks, clkTck, pin) {
  if (!Array.isArray(stealTicks) || !clkTck) return null
  const cpus = pin ? [...new Set([pin.reader, pin.feeder])].filter(cpu => cpu < stealTicks.length) : stealTicks.map((_, cpu) => cpu)
  if (cpus.length === 0) return null
  const ticks = cpus.reduce((sum, cpu) => sum + stealTicks[cpu], 0)
  return { cpus, ticks, clkTck }
}

// Steal over wall time times CPUs, summed over runs (records with wallNs and steal);
// null if any run has no steal recorded (runs from before it was, or an unreadable
// /proc/stat): a share of some runs would claim a cleanliness nobody measured.
function stealShare (runs) {
  if (runs.length === 0 || runs.some(run => !run.steal || !(run.wallNs > 0))) return null
  let stolenNs = 0
  let cpuNs = 0
  for (const run of runs) {
    stolenNs += run.steal.ticks * 1e9 / run.steal.clkTck
    cpuNs += run.wallNs * run.steal.cpus.length
  }
  return stolenNs / cpuNs
}

module.exports = { STEAL_SHARE, runSteal, stealShare }
