# Each run's tries measured again for foreign CPU time, by phase, and their foreign user time (ms).
# sh superseded.sh (from docs/db/2026-12-06-foreign); the runs: q0 at 158e4deb, q1 at f7e1d6ab
# (`node bench.js --experiment db --quick --out /tmp/w/r103 --id q0`), d1 and d2 of 2026-12-05.
for run in d1 d2 q0 q1; do
  zcat "$run-all.jsonl.gz" | node -e '
    const records = require("fs").readFileSync(0, "utf8").trim().split("\n").map(JSON.parse)
    const again = records.filter(record => record.superseded)
    const kept = records.filter(record => !record.superseded && record.foreign)
    const ms = again.map(record => Math.round(record.foreign.foreignNs / 1e6)).sort((a, b) => a - b)
    console.log(process.argv[1], `${again.length} tries measured again, ${kept.length} steps kept;`,
      `foreign ${ms[0]}-${ms.at(-1)} ms`)' "$run"
done
