# Each reader's CPU per read by slope (the 200 MiB run less the 50 MiB run, over the 614,400
# reads between them) per trial, and its ratio to C's of the same trial, from readers.sh's output:
#   python3 docs/profile/2026-12-05-batch/slopes.py readers.txt
import collections, statistics, sys

runs = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) != 6:
        continue
    trial, reader, variant, blocks, ms, switches = parts
    runs[(reader, variant, int(trial))][int(blocks)] = float(ms)
reads = (3200 - 800) * 65536 // 256
slopes = collections.defaultdict(list)
for (reader, variant, trial), ms in sorted(runs.items(), key=lambda item: item[0][2]):
    slopes[(reader, variant)].append((ms[3200] - ms[800]) * 1e6 / reads)
for (reader, variant), values in slopes.items():
    print(f'{reader:9} {variant:9} ns per read: median {statistics.median(values):.1f}, trials',
          ' '.join(f'{v:.0f}' for v in values))
for reader in ['node-sync', 'just-fast']:
    for variant in ['dd-one', 'bothbatch']:
        ratios = [a / b for a, b in zip(slopes[(reader, variant)], slopes[('c', variant)])]
        cv = 100 * statistics.pstdev(ratios) / statistics.mean(ratios)
        print(f'{reader:9} {variant:9} over C: median {statistics.median(ratios):.3f}, CV {cv:.1f}%')
