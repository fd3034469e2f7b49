/**
 * /users (admins: invite, force a reset) and the public password links under /auth/password.
 */
import type { RouteEntry } from '../route-types.js';
import { PASSWORD_RESET_FIELDS, USER_FIELDS, presentPasswordReset, presentUser } from '../presenters/users.js';

export const usersRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/auth/password/forgot',
    auth: 'public',
    operation: 'mutation RequestPasswordReset($email: String!) { requestPasswordReset(email: $email) }',
    variables: (req) => ({ email: req.body.email }),
    status: 202,
    respond: (data) => ({ detail: data.requestPasswordReset }),
  },
  {
    method: 'post',
    path: '/auth/password/reset',
    auth: 'public',
    operation:
      'mutation SetPasswordWithLink($token: String!, $password: String!) { setPasswordWithLink(token: $token, password: $password) }',
    variables: (req) => ({ token: req.body.token, password: req.body.password }),
    status: 204,
  },
  {
    method: 'post',
    path: '/users',
    operation: `mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { ${USER_FIELDS} } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentUser(data.createUser),
  },
  {
    method: 'post',
    path: '/users/:userId/password-reset',
    operation: `mutation ResetUserPassword($userId: ID!) { resetUserPassword(userId: $userId) { ${PASSWORD_RESET_FIELDS} } }`,
    variables: (req) => ({ userId: req.params.userId }),
    status: 202,
    respond: (data) => presentPasswordReset(data.resetUserPassword),
  },
];
