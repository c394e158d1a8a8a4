# Each run's tries measured again for foreign CPU time and their foreign user time (ms); for a
# run that kept each CPU's signed residual (since 28d778d7), the floor its noise gauge ended on
# and how many of its kept steps the rule before it (3% and 20 ms) would have called disturbed.
# sh superseded.sh (from docs/db/2026-12-06-foreign). The runs: d1 and d2 of 2026-12-05 (quiet);
# q0 at 158e4deb and q1 at 158e4deb with f7e1d6ab's change uncommitted (`node bench.js --experiment db --quick --out /tmp/w/r103
# --id q0`); db1 (quiet) and db2 (beside `node studies/disturb.js --for 660`) at 28d778d7,
# `node bench.js --experiment db --out /tmp/w/r103 --id db1`.
# usage: sh superseded.sh   (from docs/db/2026-12-06-foreign)
GUARD_ARGS='0 0'; . "$(dirname "$0")/../../script-guard.sh" || exit 2
for run in d1 d2 q0 q1 db1 db2; do
  zcat "$run-all.jsonl.gz" | node -e '
    const records = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse)
    const again = records.filter(record => record.superseded)
    const kept = records.filter(record => !record.superseded && record.foreign)
    const ms = again.map(record => Math.round(record.foreign.foreignNs / 1e6)).sort((a, b) => a - b)
    let line = `${process.argv[1]}: ${again.length} tries measured again, ${kept.length} steps kept; ` +
      `foreign ${ms.length ? `${ms[0]}-${ms.at(-1)}` : "none"} ms`
    const judged = records.filter(record => record.foreign?.noiseFloorsNs)
    if (judged.length) {
      const before = kept.filter(record => record.foreign.share > 0.03 &&
        Math.max(...record.foreign.residualsNs) > 20e6).length
      const floors = judged.at(-1).foreign.noiseFloorsNs.map(ns => Math.round(ns / 1e6))
      line += `; floors at the end ${floors.join(" and ")} ms (CPUs ${judged.at(-1).foreign.cpus.join(", ")}); ` +
        `the rule before would have called ${before} kept steps disturbed`
    }
    console.log(line)' "$run"
done
