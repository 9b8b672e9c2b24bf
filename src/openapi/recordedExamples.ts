// Written by test/openapi/examples.test.ts with OPENAPI_RECORD=1; do not edit by hand. Real requests
// and answers of every operation, which the same test checks the API still gives.
import type { RecordedExamples } from './exchange.ts';

export const RECORDED_EXAMPLES: RecordedExamples = {};
