/**
 * The line every benchmark ends with for each of its goals: the figure, the goal and whether this run
 * met it, e.g. `ratio p95 1.12× (goal ≤ 1.2×): met`.
 */
export function goalLine(
  label: string,
  value: number,
  goal: { atMost?: number; atLeast?: number },
  unit = '×',
  digits = 2,
): string {
  const met =
    (goal.atMost === undefined || value <= goal.atMost) && (goal.atLeast === undefined || value >= goal.atLeast);
  const bound = goal.atMost !== undefined ? `≤ ${goal.atMost}${unit}` : `≥ ${goal.atLeast}${unit}`;
  return `${label} ${value.toFixed(digits)}${unit} (goal ${bound}): ${met ? 'met' : 'NOT met'}`;
}
