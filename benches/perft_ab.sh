#!/usr/bin/env bash
# Turn-generation speed of two arimaa binaries on the same positions.
#
# Usage: benches/perft_ab.sh [-n RUNS] [-f FILE] BINARY_A BINARY_B
#
# FILE holds one AEI position per line; by default, the 200 positions of the
# repository's oracle data (crates/arimaa-core/tests/data/movegen.jsonl).
# Runs `perft --file FILE --times` (best of 5 per position) RUNS times for each
# binary, alternating A and B, keeps each position's best time over all runs
# and prints the two sums and their ratio. Alternating and keeping the best
# lets both binaries meet the same moments of a shared, noisy machine: single
# back-to-back runs of one binary differ by up to 45 % here, this sum by 1-5 %.
# The counts of both binaries must agree, or the script fails.
set -euo pipefail
runs=10
file=""
while getopts "n:f:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    f) file=$OPTARG ;;
    *) echo "usage: $0 [-n RUNS] [-f FILE] BINARY_A BINARY_B" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
  echo "usage: $0 [-n RUNS] [-f FILE] BINARY_A BINARY_B" >&2
  exit 2
fi
a=$1
b=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$file" ]; then
  fixtures="$(dirname "$0")/../crates/arimaa-core/tests/data/movegen.jsonl"
  [ -r "$fixtures" ] || { echo "error: cannot read $fixtures (give -f FILE)" >&2; exit 1; }
  python3 -c 'import json,sys
for l in open(sys.argv[1]):
    if l.strip(): print(json.loads(l)["setposition"])' "$fixtures" > "$tmp/positions.txt"
  file="$tmp/positions.txt"
fi
for i in $(seq "$runs"); do
  for side in a b; do
    bin=$a
    [ "$side" = b ] && bin=$b
    if ! "$bin" perft --file "$file" --times > "$tmp/$side.$i" 2> "$tmp/err"; then
      echo "error: $bin perft failed:" >&2
      cat "$tmp/err" >&2
      exit 1
    fi
  done
  if ! cmp -s <(cut -d' ' -f1,2 "$tmp/a.$i") <(cut -d' ' -f1,2 "$tmp/b.$i"); then
    echo "error: the two binaries count differently (run $i)" >&2
    exit 1
  fi
done
best() { paste "$@" | awk '{m = $3; for (i = 6; i <= NF; i += 3) if ($i < m) m = $i; s += m} END {printf "%.1f", s / 1000}'; }
ta=$(best "$tmp"/a.*)
tb=$(best "$tmp"/b.*)
echo "A $ta ms  B $tb ms  B/A $(awk -v a="$ta" -v b="$tb" 'BEGIN {printf "%.3f", b / a}')  (per-position best of $runs runs x 5, summed)"
