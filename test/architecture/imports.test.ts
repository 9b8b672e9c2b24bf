// The import graph of src/ (madge): no circles, and few imports that run back up a floor. Floors,
// from the bottom: base (clock, config, plans, db, security, outbound, observability), plumbing
// (http, and jobs and upgrades, the registries domains add to), the domains' contract (context.ts,
// module.ts), the domains, and the assembly (app.ts, openapi/, modules.ts, runtime.ts, main.ts,
// cli/). An import runs back up when it reaches a higher floor, or when a file in a domain's
// subfolder imports its parent folder's service, state, routes or jobs.
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const FLOORS: Record<string, number> = {
  'clock.ts': 0,
  'config.ts': 0,
  'plans.ts': 0,
  db: 0,
  security: 0,
  outbound: 0,
  observability: 0,
  http: 1,
  jobs: 1,
  upgrades: 1,
  'context.ts': 2,
  'module.ts': 2,
  'app.ts': 4,
  openapi: 4,
  'modules.ts': 4,
  'runtime.ts': 4,
  'main.ts': 4,
  cli: 4,
};
const DOMAIN_FLOOR = 3;
/** Upward imports tolerated; lower it as they go, never raise it. */
const MAX_UPWARD = 2;

const floorOf = (file: string): number => FLOORS[file.split('/')[0]!] ?? DOMAIN_FLOOR;
const PARENT_ROLES = /^(service|state|routes|adminRoutes|index)\.ts$|\.job\.ts$/;

function runsUp(from: string, to: string): boolean {
  if (floorOf(to) > floorOf(from)) return true;
  const parts = from.split('/');
  const target = to.split('/');
  return parts.length > 2 && target.slice(0, -1).join('/') === parts.slice(0, -2).join('/') && PARENT_ROLES.test(target.at(-1)!);
}

describe('src/ imports', async () => {
  const graph = await madge('src', { fileExtensions: ['ts'], tsConfig: 'tsconfig.json' });

  it('form no circle', () => {
    expect(graph.circular()).toEqual([]);
  });

  it(`run back up a floor at most ${MAX_UPWARD} times`, () => {
    const upward = Object.entries(graph.obj()).flatMap(([from, deps]) => deps.filter((to) => runsUp(from, to)).map((to) => `${from} -> ${to}`));
    console.log(`imports running back up a floor: ${upward.length}\n  ${upward.join('\n  ')}`);
    expect(upward.length).toBeLessThanOrEqual(MAX_UPWARD);
  });
});
