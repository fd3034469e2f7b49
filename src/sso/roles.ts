/**
 * The role a single sign-on gives, from the user's group claim (Grafana's role mapping from claims): a
 * member of an admin group is `admin`; otherwise a member of a member group is `member`; with no member
 * groups configured, everyone else the provider lets through is a `member`.
 */
export interface RoleMapping {
  groupsClaim: string;
  adminGroups: string[];
  memberGroups: string[];
}

/** The groups a claim set names under `claim`: an array of strings, or one string (some providers send one). */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const value = claims[claim];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return [];
}

/** `admin`, `member`, or null when the mapping admits nobody with these groups. */
export function roleFromGroups(groups: string[], mapping: RoleMapping): 'admin' | 'member' | null {
  const has = (wanted: string[]) => wanted.some((g) => groups.includes(g));
  if (has(mapping.adminGroups)) return 'admin';
  if (!mapping.memberGroups.length || has(mapping.memberGroups)) return 'member';
  return null;
}
