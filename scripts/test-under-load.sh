#!/usr/bin/env bash
# Runs the whole suite N times in a row (default 3) while two extra CPU-bound processes compete for the
# cores, the way a shared CI machine is loaded. `stress-ng --cpu 2` when installed, else two node busy
# loops. Optional: TEST_TIMES_OF_DAY=00:05,00:45 moves the time-of-day cases' clock.
# Optional: RUN_TIMES_OF_DAY rotates the suite clock per run: its Nth entry is TEST_TIME_OF_DAY for run N
# (HH:MM UTC, or `real` for the real clock); runs past the list's end start over from its first entry.
# Without it every run keeps the caller's TEST_TIME_OF_DAY (if any), as before.
#   npm run test:under-load            # 3 runs
#   RUNS=1 npm run test:under-load -- test/reports.test.ts
#   RUN_TIMES_OF_DAY=00:30,real,00:55 npm run test:under-load   # run 1 at 00:30, run 2 real, run 3 at 00:55
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=${RUNS:-3}
times=()
if [[ -n "${RUN_TIMES_OF_DAY:-}" ]]; then
  IFS=',' read -ra times <<<"$RUN_TIMES_OF_DAY"
  for t in "${times[@]}"; do
    if [[ ! "$t" =~ ^(real|([01][0-9]|2[0-3]):[0-5][0-9])$ ]]; then
      echo "RUN_TIMES_OF_DAY: each entry is HH:MM (UTC) or real, got \"$t\"" >&2
      exit 2
    fi
  done
fi
load=()
if command -v stress-ng >/dev/null; then
  stress-ng --cpu 2 --quiet & load+=($!)
else
  for _ in 1 2; do node -e 'for (;;) {}' & load+=($!); done
fi
trap 'kill "${load[@]}" 2>/dev/null' EXIT
echo "load: ${#load[@]} process(es) (${load[*]}); $runs run(s)"
failed=0
for ((i = 1; i <= runs; i++)); do
  start=$(date +%s)
  clock="${TEST_TIME_OF_DAY:-real}"
  env=()
  if ((${#times[@]})); then
    clock=${times[$(((i - 1) % ${#times[@]}))]}
    if [[ "$clock" == real ]]; then env=(-u TEST_TIME_OF_DAY); else env=("TEST_TIME_OF_DAY=$clock"); fi
  fi
  echo "run $i/$runs: suite clock $clock"
  if env "${env[@]}" npx vitest run "$@"; then echo "run $i/$runs passed in $(( $(date +%s) - start )) s (clock $clock)"
  else echo "run $i/$runs FAILED after $(( $(date +%s) - start )) s (clock $clock)"; failed=$((failed + 1)); fi
done
echo "$((runs - failed)) of $runs runs passed under load"
exit $((failed > 0))
