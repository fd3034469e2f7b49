/**
 * The account a single sign-on lands in: found by email in the provider's tenant, or created there on
 * first sign-in (a person, no password, `credentialOrigin` = 'sso'). The role follows the group claim at
 * every sign-in (as Grafana's role sync does), except that the tenant's last human admin is not demoted.
 */
import type { Runtime } from '../runtime.js';
import type { User } from '../generated/prisma/client.js';
import { Forbidden, Unauthenticated } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { groupsOf, roleFromGroups } from './roles.js';
import type { SsoProvider } from './providers.js';

/** The value of User.credentialOrigin for accounts created by a single sign-on. */
export const SSO_ORIGIN = 'sso';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function emailOf(claims: Record<string, unknown>): string {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!EMAIL.test(email))
    throw new Unauthenticated(
      'Single sign-on failed: the provider sent no email claim (ask for the email scope).',
      'SSO_FAILED',
    );
  if (claims.email_verified === false)
    throw new Unauthenticated(`Single sign-on failed: the provider has not verified ${email}.`, 'SSO_FAILED');
  return email;
}

/** Finds or creates the user `claims` describe in the provider's tenant, with the role their groups map to. */
export async function provisionSsoUser(
  rt: Runtime,
  provider: SsoProvider,
  claims: Record<string, unknown>,
): Promise<User> {
  const email = emailOf(claims);
  const groups = groupsOf(claims, provider.groupsClaim);
  const role = roleFromGroups(groups, provider);
  if (!role)
    throw new Forbidden(
      `${email} is in none of the groups this service admits (claim "${provider.groupsClaim}"); ask your administrator.`,
      'SSO_ROLE_NOT_GRANTED',
    );
  const name = typeof claims.name === 'string' ? claims.name.slice(0, 200) : null;
  const existing = await rt.prisma.user.findUnique({ where: { email } });
  if (existing && (existing.tenantId !== provider.tenantId || existing.kind !== 'human'))
    throw new Forbidden(
      `${email} belongs to another account of this installation; single sign-on cannot use it.`,
      'SSO_ACCOUNT_ELSEWHERE',
    );
  if (!existing) {
    try {
      return await rt.prisma.user.create({
        data: { tenantId: provider.tenantId, email, name, role, kind: 'human', credentialOrigin: SSO_ORIGIN },
      });
    } catch (err) {
      // Two first sign-ins at once: the other one created it.
      if (!isUniqueViolation(err)) throw err;
      return provisionSsoUser(rt, provider, claims);
    }
  }
  if (existing.role === role) return existing;
  if (existing.role === 'admin') {
    const otherAdmins = await rt.prisma.user.count({
      where: { tenantId: existing.tenantId, role: 'admin', kind: 'human', id: { not: existing.id } },
    });
    if (otherAdmins === 0) {
      rt.logger.warn({ userId: existing.id }, 'single sign-on would demote the last admin; role kept');
      return existing;
    }
  }
  return rt.prisma.user.update({ where: { id: existing.id }, data: { role } });
}
