import { readFileSync } from 'node:fs';
import type { InlineConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import config from '../../.storybook/main';

/**
 * `npm run build-storybook` is quiet (issue 43 item 11): it printed 143 lines with --quiet (Vite's
 * list of every chunk, and two warnings the stories cause by design). Checked on the
 * configuration; the build itself takes a few seconds and is CI's to run.
 */
type Warning = { code?: string; message: string };
type OnWarn = (warning: Warning, warn: (w: Warning) => void) => void;

describe('the Storybook build', () => {
  it('logs warnings only, without the two the stories cause by design', async () => {
    const final = (await config.viteFinal!({}, {
      configType: 'PRODUCTION',
    } as never)) as InlineConfig;
    expect(final.logLevel).toBe('warn');
    // The stories' preview is one large chunk by design: it is never what a patient loads.
    expect(final.build?.chunkSizeWarningLimit).toBeGreaterThanOrEqual(4096);
    const onwarn = (final.build?.rolldownOptions as { onwarn?: OnWarn } | undefined)?.onwarn;
    const shown: Array<string | undefined> = [];
    // The stories import the KYC machine that the app loads on demand: no chunk of its own here.
    onwarn!({ code: 'INEFFECTIVE_DYNAMIC_IMPORT', message: 'kyc.machine.ts' }, (w) =>
      shown.push(w.code),
    );
    onwarn!({ code: 'CIRCULAR_DEPENDENCY', message: 'a -> b -> a' }, (w) => shown.push(w.code));
    expect(shown).toEqual(['CIRCULAR_DEPENDENCY']);
  });

  it('npm run storybook (development) keeps its usual output', async () => {
    const dev = (await config.viteFinal!({}, {
      configType: 'DEVELOPMENT',
    } as never)) as InlineConfig;
    expect(dev.logLevel).toBeUndefined();
  });

  it('the script asks Storybook for its warnings only, not its progress', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['build-storybook']).toMatch(
      /--quiet\b.*--loglevel warn\b|--loglevel warn\b.*--quiet\b/,
    );
  });
});
