/**
 * /auth: login, logout, me, personal access tokens.
 */
import type { RouteEntry } from '../route-types.js';
import { ME_FIELDS, presentLogin, presentMe } from '../presenters/auth.js';
import { TOKEN_FIELDS, presentMintedToken, presentToken } from '../presenters/tokens.js';
import { arrayOf } from '../presenters/lists.js';

export const authRoutes: RouteEntry[] = [
  {
    method: 'post',
    path: '/auth/login',
    auth: 'public',
    operation:
      'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { accessToken tokenType expiresIn } }',
    variables: (req) => ({ email: req.body.email, password: req.body.password }),
    respond: (data) => presentLogin(data.login),
  },
  {
    method: 'post',
    path: '/auth/logout',
    operation: 'mutation Logout { logout }',
    status: 204,
  },
  {
    method: 'get',
    path: '/auth/me',
    operation: `query Me { ${ME_FIELDS} }`,
    respond: (data) => presentMe(data),
  },
  {
    method: 'get',
    path: '/auth/tokens',
    operation: `query Tokens { tokens { ${TOKEN_FIELDS} } }`,
    respond: (data) => arrayOf(data.tokens, presentToken),
  },
  {
    method: 'post',
    path: '/auth/tokens',
    operation: `mutation CreateToken($input: CreateTokenInput!) { createToken(input: $input) { token accessToken { ${TOKEN_FIELDS} } } }`,
    variables: (req) => ({ input: req.body }),
    status: 201,
    respond: (data) => presentMintedToken(data.createToken),
  },
  {
    method: 'delete',
    path: '/auth/tokens/:tokenId',
    operation: 'mutation RevokeToken($id: ID!) { revokeToken(id: $id) { id } }',
    variables: (req) => ({ id: req.params.tokenId }),
    status: 204,
  },
  {
    method: 'post',
    path: '/auth/tokens/:tokenId/reactivate',
    operation: `mutation ReactivateToken($id: ID!) { reactivateToken(id: $id) { ${TOKEN_FIELDS} } }`,
    variables: (req) => ({ id: req.params.tokenId }),
    respond: (data) => presentToken(data.reactivateToken),
  },
  {
    method: 'post',
    path: '/auth/tokens/:tokenId/rotate',
    operation: `mutation RotateToken($id: ID!) { rotateToken(id: $id) { token accessToken { ${TOKEN_FIELDS} } } }`,
    variables: (req) => ({ id: req.params.tokenId }),
    status: 201,
    respond: (data) => presentMintedToken(data.rotateToken),
  },
];
