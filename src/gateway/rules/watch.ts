// Keeps the current rule set: loaded at start, reloaded when a file in the folder changes
// (fs.watch, debounced) and on demand (admin API). A failed reload keeps the good files.
import { watch, type FSWatcher } from 'node:fs';
import type { Logger } from '../../observability/logger.ts';
import { formatLoadError, loadRuleSet, unconfiguredSources, type RuleSet } from './loader.ts';

export class RuleBook {
  private current: RuleSet;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly dir: string,
    private readonly logger: Logger,
    private readonly debounceMs = 100,
    /** The source names GATEWAY_CONFIG defines now, to warn about rules naming another. */
    private readonly sources: () => Iterable<string> = () => [],
  ) {
    this.current = this.load();
  }

  get rules(): RuleSet {
    return this.current;
  }

  reload(): RuleSet {
    this.current = this.load();
    return this.current;
  }

  private load(): RuleSet {
    const set = loadRuleSet(this.dir);
    for (const e of set.errors) this.logger.warn({ file: e.file, rule: e.rule }, `rule file rejected: ${formatLoadError(e)}`);
    for (const w of unconfiguredSources(set, this.sources())) this.logger.warn({ file: w.file, rule: w.rule, source: w.source }, `rule for an unconfigured source: ${formatLoadError(w)}`);
    this.logger.info({ dir: this.dir, rules: set.rules.length, errors: set.errors.length }, 'gateway rules loaded');
    return set;
  }

  watch(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.dir, () => {
        if (this.timer) clearTimeout(this.timer);
        this.timer = setTimeout(() => {
          this.timer = null;
          this.reload();
        }, this.debounceMs);
      });
      this.watcher.on('error', (err) => this.logger.warn({ err, dir: this.dir }, 'rules folder watch failed; use reload'));
    } catch (err) {
      this.logger.warn({ err, dir: this.dir }, 'cannot watch the rules folder; use reload');
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
    this.watcher = null;
  }
}
