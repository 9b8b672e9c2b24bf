// Whether the documents answer a question at all, judged from its ranking's signals (knowledge/
// search.ts Signals) by a logistic model fitted over every tuning corpus of the retrieval bench,
// answerable questions against unanswerable ones. Each signal comes from corpus statistics only, so
// one model serves every bot; hand-set rules for each signal traded about one answerable question
// for each unanswerable one they caught (docs/CHAT.md).
import type { Signals } from '../../knowledge/search.ts';

export interface AnswerabilityModel {
  bias: number;
  /** One weight per answerFeatures() entry, in its order. */
  weights: number[];
  /** The least probability of being answerable a question needs before a passage is quoted. */
  threshold: number;
}

/** The model's inputs, each between 0 and 1. */
export function answerFeatures(s: Signals): number[] {
  return [
    s.coverage,
    s.topCoverage,
    s.unknown,
    Math.min(s.unknownTerms, 4) / 4,
    s.missingIdf,
    s.specificity,
    Math.min(s.scoreShare, 1),
    s.gap,
    s.unknownName ? 1 : 0,
    s.missingName ? 1 : 0,
    Math.min(s.terms, 12) / 12,
  ];
}

/** The probability that the documents answer the question whose hits carry these signals (or features). */
export function answerability(s: Signals | number[], model: AnswerabilityModel): number {
  const z = (Array.isArray(s) ? s : answerFeatures(s)).reduce((n, x, i) => n + x * (model.weights[i] ?? 0), model.bias);
  return 1 / (1 + Math.exp(-z));
}

// Refit by `npm run bench -- retrieval -- --fit` (bench/retrieval.ts), which prints this constant.
export const ANSWERABILITY: AnswerabilityModel = {
  bias: -7.3776,
  weights: [3.2259, 2.3325, -12.3898, 6.4236, -0.8027, 6.8711, 4.7509, -1.8305, -0.8338, -2.1437, 3.2494],
  threshold: 0.3231,
};
