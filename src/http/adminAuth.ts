// The admin API is authenticated by ADMIN_TOKEN (Authorization: Bearer …), compared in constant time.
import type { Context, Next } from 'koa';
import { AppError } from './errors.ts';
import { secretsEqual } from '../security/secrets.ts';

export function adminAuth(adminToken: string | undefined) {
  return async function requireAdmin(ctx: Context, next: Next) {
    if (!adminToken) throw new AppError('unauthorized', 'The admin API is off: set ADMIN_TOKEN to enable it');
    const header = ctx.get('authorization');
    const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
    if (!secretsEqual(token, adminToken)) throw new AppError('unauthorized', 'A valid admin token is required');
    return next();
  };
}
