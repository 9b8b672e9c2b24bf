// How a delivery row stores which of its facts rest on a signature: one string of their names
// ('deliveryId event', '' for none). On FerretDB each field of a stored document is typed in the
// row's schema, and the `signed` sub-document made a delivery's insert and its processed mark cost
// noticeably more than a scalar does (docs/BENCHMARKS.md, session 33). Rows stored before keep the
// sub-document, and rows older still have neither (read as nothing signed).
import type { GatewayDelivery } from './model.ts';
import type { SignedFacts } from './schemes/types.ts';

const FACTS = ['deliveryId', 'event', 'test'] as const;

export function storedSignedFacts(signed: SignedFacts): string {
  return FACTS.filter((fact) => signed[fact]).join(' ');
}

/** The facts of a stored row, whichever way it stored them. */
export function signedFactsOf(row: Pick<GatewayDelivery, 'signed' | 'signedFacts'>): SignedFacts {
  if (typeof row.signedFacts === 'string') {
    const names = new Set(row.signedFacts.split(' '));
    return { deliveryId: names.has('deliveryId'), event: names.has('event'), test: names.has('test') };
  }
  return { deliveryId: row.signed?.deliveryId === true, event: row.signed?.event === true, test: row.signed?.test === true };
}
