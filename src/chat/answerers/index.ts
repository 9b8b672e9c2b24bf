// Picks the answerer from configuration: the model when one is configured, else the grounded one.
import type { Config } from '../../config.ts';
import { groundedAnswerer } from './grounded.ts';
import { createModelAnswerer } from './model.ts';
import type { Answerer } from './types.ts';

const byConfig = new WeakMap<Config, Answerer>();

export function answererFor(config: Config): Answerer {
  if (!config.OPENAI_BASE_URL || !config.OPENAI_MODEL) return groundedAnswerer;
  let answerer = byConfig.get(config);
  if (!answerer) byConfig.set(config, (answerer = createModelAnswerer(config)));
  return answerer;
}
