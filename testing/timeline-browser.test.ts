/**
 * The timeline pages in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core, which downloads no browser) opens the report of a sequential, a concurrent, a
 * scheduled and a soak counterexample, and of a fresh `run --mode scheduled --html`, and finds the
 * lanes, the bars drawn with a width, the stuck or wrong calls, the rule text, and no console
 * error. Each page's screenshot is saved (into $RECEIPTCHECK_SCREENSHOTS when set); with
 * RECEIPTCHECK_UPDATE_SCREENSHOT=1 the run's also replaces the README's docs/timeline.png.
 * Without a browser the tests are skipped under a title naming the executable looked for; the rest of the
 * suite runs. Set RECEIPTCHECK_CHROMIUM to use another executable.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../src/cli/run-cli.ts';
import { ROOT } from './doc-blocks.ts';
import { outcomeOf, receiptcheck } from './user-project.ts';

const CANDIDATES = process.env.RECEIPTCHECK_CHROMIUM
  ? [process.env.RECEIPTCHECK_CHROMIUM]
  : ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const executable = CANDIDATES.find((p) => existsSync(p));
const saved = new URL('./timeline/', import.meta.url).pathname;
/** The README's picture: this file's run test writes it when RECEIPTCHECK_UPDATE_SCREENSHOT=1. */
const README_SCREENSHOT = join(ROOT, 'docs', 'timeline.png');

if (!executable)
  console.warn(
    `timeline browser tests skipped: no Chromium at ${CANDIDATES.join(' or ')} (apt-get install chromium, or set RECEIPTCHECK_CHROMIUM)`,
  );

describe.skipIf(!executable)(
  `the timeline in headless Chromium (${executable ?? `skipped: no browser at ${CANDIDATES.join(' or ')}`})`,
  () => {
    let browser: Browser;
    // Made here, not at the top: a skipped file runs no hooks, and would leave the folder behind.
    let tmp = '';
    let shots = '';
    beforeAll(async () => {
      tmp = mkdtempSync(join(tmpdir(), 'receiptcheck-browser-'));
      shots = process.env.RECEIPTCHECK_SCREENSHOTS ?? join(tmp, 'screenshots');
      mkdirSync(shots, { recursive: true });
      // Root in a container has no user namespace for Chromium's sandbox; the pages are our own.
      browser = await chromium.launch({
        executablePath: executable as string,
        args: ['--no-sandbox'],
        timeout: 30_000,
      });
    });
    afterAll(async () => {
      await browser?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    /** Opens `page` and returns what a reader would check, with the console errors seen. */
    async function open(html: string) {
      const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('request', (r) => {
        if (!r.url().startsWith('file:')) errors.push(`fetched ${r.url()}`);
      });
      await page.goto(`file://${html}`);
      const lanes = await page.locator('.lane').count();
      const widths = await page
        .locator('.bar')
        .evaluateAll((bars) => bars.map((b) => b.getBoundingClientRect().width));
      const flagged = await page.locator('.bar.stuck, .bar.wrong').count();
      const rules = await page.locator('.rule').allInnerTexts();
      const shot = join(shots, basename(html).replace(/\.html$/, '.png'));
      await page.screenshot({ path: shot, fullPage: true });
      // Clicking a bar leads to its call's row (the page's only script).
      await page.locator('.bar').first().click();
      await page.close();
      return { lanes, widths, flagged, rules, errors, shot };
    }

    async function reportOf(name: string): Promise<string> {
      const file = join(tmp, name);
      copyFileSync(join(saved, name), file);
      const r = await cli('report', file);
      expect(r.code).toBe(0);
      return file.replace(/\.json$/, '.html');
    }

    it.each([
      ['sequential-version-before-receipt.json', 2],
      ['concurrent-check-then-act.json', 2],
      ['scheduled-deferred-transaction.json', 2],
      ['soak-replay-not-flagged.json', 3],
    ])(
      'opens the report of %s: lanes, bars, the call to blame and its rule, no error',
      async (name, lanesMin) => {
        const seen = await open(await reportOf(name));
        expect(seen.errors).toEqual([]);
        expect(seen.lanes).toBeGreaterThanOrEqual(lanesMin);
        expect(seen.widths.length).toBeGreaterThan(0);
        for (const w of seen.widths) expect(w).toBeGreaterThan(2);
        expect(seen.flagged).toBeGreaterThan(0);
        expect(seen.rules.some((r) => /^rule \d/.test(r))).toBe(true);
      },
    );

    it('opens what run --handler check-then-act --mode scheduled --html out/ writes: both lanes and the wrong call', async () => {
      // The command as a user runs it, in a folder of its own: the page then names the paths a
      // user sees (counterexamples/…), which is what the README's screenshot shows.
      const cwd = join(tmp, 'project');
      mkdirSync(cwd);
      const args = ['run', '--handler', 'check-then-act', '--mode', 'scheduled', '--html', 'out/'];
      const r = receiptcheck(cwd, args);
      expect(r.status, outcomeOf(r)).toBe(1);
      const html = join(cwd, 'out', 'check-then-act-scheduled-seed42.html');
      expect(r.stdout).toContain('timeline: out/check-then-act-scheduled-seed42.html');
      expect(readFileSync(html, 'utf8')).toContain(
        'npx receiptcheck replay counterexamples/check-then-act-scheduled-seed42.json',
      );
      const seen = await open(html);
      expect(seen.errors).toEqual([]);
      expect(seen.lanes).toBe(2);
      expect(seen.flagged).toBe(1);
      // The wrong call's rule is on the page (which rule depends on the race the seed finds).
      expect(seen.rules.some((r) => /^rule \d+$/.test(r))).toBe(true);
      if (process.env.RECEIPTCHECK_UPDATE_SCREENSHOT === '1')
        copyFileSync(seen.shot, README_SCREENSHOT);
    });
  },
);
