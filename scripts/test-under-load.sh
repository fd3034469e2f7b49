#!/usr/bin/env bash
# Runs the whole suite N times in a row (default 3) while two extra CPU-bound processes compete for the
# cores, the way a shared CI machine is loaded. `stress-ng --cpu 2` when installed, else two node busy
# loops. Optional: TEST_TIMES_OF_DAY=00:05,00:45 moves the time-of-day cases' clock.
#   npm run test:under-load            # 3 runs
#   RUNS=1 npm run test:under-load -- test/reports.test.ts
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=${RUNS:-3}
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
  if npx vitest run "$@"; then echo "run $i/$runs passed in $(( $(date +%s) - start )) s"
  else echo "run $i/$runs FAILED after $(( $(date +%s) - start )) s"; failed=$((failed + 1)); fi
done
echo "$((runs - failed)) of $runs runs passed under load"
exit $((failed > 0))
