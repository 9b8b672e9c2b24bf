// Time and ids come from here so tests can drive them.
import { randomUUID } from 'node:crypto';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const newId = (): string => randomUUID();
