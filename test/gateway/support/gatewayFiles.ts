// A throwaway GATEWAY_CONFIG file and rules folder per test file, written before the runtime starts.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface GatewayFiles {
  root: string;
  rulesDir: string;
  configFile: string;
  env: Record<string, string>;
  writeRule(name: string, content: unknown): string;
}

export function gatewayFiles(config: unknown, rules: Record<string, unknown> = {}, extraEnv: Record<string, string> = {}): GatewayFiles {
  const root = mkdtempSync(path.join(tmpdir(), 'relay-gateway-'));
  const rulesDir = path.join(root, 'rules');
  mkdirSync(rulesDir);
  const configFile = path.join(root, 'gateway.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const writeRule = (name: string, content: unknown) => {
    const file = path.join(rulesDir, name);
    writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    return file;
  };
  for (const [name, content] of Object.entries(rules)) writeRule(name, content);
  return { root, rulesDir, configFile, env: { GATEWAY_CONFIG: configFile, RULES_DIR: rulesDir, DATA_DIR: path.join(root, 'data'), ...extraEnv }, writeRule };
}
