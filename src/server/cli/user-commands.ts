/**
 * The operator's user commands inside a tenant: list users, set a role, reset a password. Changes are
 * written to the tenant's audit log with credential kind `system`.
 */
import crypto from 'node:crypto';
import { findTenant } from '../../tenants/tenants.js';
import { findUserByEmail, resetPassword, setUserRole } from '../../users/users.js';
import { NotFound } from '../../errors.js';
import { issuePasswordLink } from '../../users/password-links.js';
import { UsageError, type Command } from './commands.js';
import { audit, opt, str, systemCtx, table } from './tenant-command-helpers.js';

const userList: Command = {
  name: 'user list',
  summary: "List a tenant's users (people and service users) with their roles.",
  synopsis: '--tenant T [--json]',
  options: { tenant: { type: 'string' } },
  required: ['tenant'],
  async run(rt, v) {
    const tenant = await findTenant(rt.prisma, str(v, 'tenant'));
    if (!tenant) throw new NotFound(`Tenant "${str(v, 'tenant')}"`);
    const users = await rt.prisma.user.findMany({
      where: { tenantId: tenant.id },
      orderBy: { createdAt: 'asc' },
      select: { id: true, email: true, name: true, role: true, kind: true, createdAt: true },
    });
    return {
      json: {
        items: users.map((u) => ({
          id: u.id,
          email: u.email,
          name: u.name,
          role: u.role,
          kind: u.kind,
          created_at: u.createdAt.toISOString(),
        })),
      },
      text: table(users.map((u) => [u.id, u.email, u.role, u.kind, u.name ?? ''])),
    };
  },
};

const userSetRole: Command = {
  name: 'user set-role',
  summary: "Make a user an admin or a member (effective on the user's next request).",
  synopsis: '--email E --role admin|member [--json]',
  options: { email: { type: 'string' }, role: { type: 'string' } },
  required: ['email', 'role'],
  async run(rt, v) {
    const role = str(v, 'role');
    if (role !== 'admin' && role !== 'member') throw new UsageError(`--role must be admin or member, got "${role}".`);
    const user = await findUserByEmail(rt.prisma, str(v, 'email'));
    const updated = await setUserRole(rt.prisma, user.id, role);
    await audit(systemCtx(rt, user.tenantId), { action: 'setUserRole', targetType: 'User', targetId: user.id });
    return {
      json: { id: updated.id, email: updated.email, role: updated.role, previous_role: user.role },
      text: `${updated.email} is now ${updated.role} (was ${user.role}).`,
    };
  },
};

const passwordReset: Command = {
  name: 'password reset',
  summary:
    "Set a new password for a person (generated and shown once unless --password is given); ends the user's open sessions.",
  synopsis: '--email E [--password P] [--json]',
  options: { email: { type: 'string' }, password: { type: 'string' } },
  required: ['email'],
  fieldOptions: { email: '--email', password: '--password' },
  async run(rt, v) {
    const user = await findUserByEmail(rt.prisma, str(v, 'email'));
    const given = opt(v, 'password');
    const password = given ?? crypto.randomBytes(12).toString('base64url');
    const { sessionsEnded } = await resetPassword(rt.prisma, user, password, rt.clock.now());
    await audit(systemCtx(rt, user.tenantId), { action: 'resetPassword', targetType: 'User', targetId: user.id });
    return {
      json: {
        id: user.id,
        email: user.email,
        sessions_ended: sessionsEnded,
        ...(given === undefined ? { password } : {}),
      },
      text: [
        `Password of ${user.email} reset; ${sessionsEnded} open session(s) ended.`,
        ...(given === undefined ? [`New password (shown only this once): ${password}`] : []),
      ].join('\n'),
    };
  },
};

/**
 * A set-password link for a person, printed instead of mailed: on an installation without SMTP_URL the operator
 * hands it over, and the password the person chooses with it is their own credential (four-eyes approvals need
 * one; a password the operator sets is not).
 */
const passwordLink: Command = {
  name: 'password link',
  summary:
    'Print a single-use link (and its token) with which a person sets their own password; for installations without SMTP.',
  synopsis: '--email E [--json]',
  options: { email: { type: 'string' } },
  required: ['email'],
  fieldOptions: { email: '--email' },
  async run(rt, v) {
    const user = await findUserByEmail(rt.prisma, str(v, 'email'));
    const purpose = user.passwordHash ? 'reset' : 'invite';
    const link = await issuePasswordLink(rt, rt.prisma, user, purpose, null);
    await audit(systemCtx(rt, user.tenantId), { action: 'issuePasswordLink', targetType: 'User', targetId: user.id });
    const token = new URL(link.url).searchParams.get('token') ?? '';
    return {
      json: { id: user.id, email: user.email, url: link.url, token, expires_at: link.expiresAt.toISOString() },
      text: `Single-use link for ${user.email} (until ${link.expiresAt.toISOString()}):\n${link.url}`,
    };
  },
};

export const userCommands: Command[] = [userList, userSetRole, passwordReset, passwordLink];
