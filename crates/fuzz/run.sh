#!/usr/bin/env bash
# Fuzz one target (or all) for SECONDS each, starting from the committed seeds;
# libFuzzer's corpus grows in crates/fuzz/corpus/TARGET, crashes land in
# crates/fuzz/artifacts/TARGET. Needs a nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz`).
#   crates/fuzz/run.sh [TARGET|all] [SECONDS]      default: all, 600 s each
set -euo pipefail
cd "$(dirname "$0")/../.."
targets=(notation records params_file match_config aei_lines)
which="${1:-all}"
seconds="${2:-600}"
if [[ "$which" != all ]]; then
    targets=("$which")
fi
for t in "${targets[@]}"; do
    mkdir -p "crates/fuzz/corpus/$t"
    echo "== $t: $seconds s"
    cargo +nightly fuzz run --fuzz-dir crates/fuzz "$t" "crates/fuzz/corpus/$t" "crates/fuzz/seeds/$t" -- \
        -max_total_time="$seconds" -print_final_stats=1 2>&1 |
        grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|panicked|SUMMARY|Test unit written' || true
    if compgen -G "crates/fuzz/artifacts/$t/*" > /dev/null; then
        echo "$t: findings in crates/fuzz/artifacts/$t" >&2
        exit 1
    fi
done
