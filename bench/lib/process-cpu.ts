/**
 * CPU time of the other processes a bench's work runs on (Postgres backends, redis-server, the receivers),
 * read from /proc on Linux: a benchmark's own `process.cpuUsage()` leaves out what it made them do.
 * Processes that end between the two readings are missed; on other systems the figures are empty.
 */
import fs from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU ms (user + system) so far of one process, from its `/proc/<pid>/stat` line; 0 when unreadable. */
function cpuOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU ms so far of every process whose command name starts with one of `names`, summed by name, and of
 * the processes `pids` (keyed by the label given).
 */
export function cpuByCommand(
  names: readonly string[],
  pids: Record<string, number | undefined> = {},
): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries([...names, ...Object.keys(pids)].map((n) => [n, 0]));
  let all: string[];
  try {
    all = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return {};
  }
  const labelOf = new Map(Object.entries(pids).map(([label, pid]) => [String(pid), label]));
  for (const pid of all) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const label = labelOf.get(pid);
    if (label) out[label] += cpuOfStat(stat);
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const key = names.find((n) => name.startsWith(n));
    if (key) out[key] += cpuOfStat(stat);
  }
  return out;
}

/** What `cpuByCommand(names, pids)` grew by since `before` (taken with the same arguments). */
export function cpuSince(
  before: Record<string, number>,
  names: readonly string[],
  pids: Record<string, number | undefined> = {},
): Record<string, number> {
  const now = cpuByCommand(names, pids);
  return Object.fromEntries(Object.keys(before).map((k) => [k, (now[k] ?? 0) - before[k]]));
}
