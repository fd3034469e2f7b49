/**
 * Filters kept in the URL's query string (`/alerts?status=any&label=env%3Dprod`), so a filtered view can
 * be bookmarked and shared. A value equal to its default is left out of the URL.
 */
import { useSearchParams } from 'wouter';

export function useUrlFilters<K extends string>(
  defaults: Record<K, string>,
): [Record<K, string>, (key: K, value: string) => void] {
  const [params, setParams] = useSearchParams();
  const values = {} as Record<K, string>;
  for (const key of Object.keys(defaults) as K[]) values[key] = params.get(key) ?? defaults[key];
  const set = (key: K, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === defaults[key]) next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  return [values, set];
}
