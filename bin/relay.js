#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx relay …` works from a clone without a build.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
