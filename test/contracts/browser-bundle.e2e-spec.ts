import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import {
  BatchDto,
  COLUMN_SIZE_DETAIL,
  CreateColumnDto,
  CreateProjectDto,
  validateBody,
} from '@layout/contracts';
import { describeWithChromium, launchChromium } from '../browser/chromium';
import { repoRoot } from '../browser/repo-root';
import { Api, createLayout, startTestApp } from '../support/test-app';
import type { ColumnBodyCheck } from './browser-entry';

const ROOT = repoRoot();
const HERE = join(ROOT, 'test', 'contracts');
const ENTRY = join(HERE, 'browser-entry.ts');

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Fails the build on any import of a Node built-in, wherever in the graph it comes from. */
const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, ({ path, importer }) => {
      const base = path.startsWith('node:') ? path : path.split('/')[0];
      if (!path.startsWith('node:') && !NODE_BUILTINS.has(base) && !NODE_BUILTINS.has(path)) {
        return undefined;
      }
      return { errors: [{ text: `Node built-in "${path}" imported by ${importer}` }] };
    });
  },
};

/** How a single-page app's bundler would build it: for the browser, everything bundled. */
const browserBuild = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  globalName: 'layoutContracts',
  target: ['chrome120', 'firefox120', 'safari17'],
  // The app's tsconfig: resolves @layout/contracts to the library's sources, and carries the
  // decorator settings (experimentalDecorators, no define semantics for class fields).
  tsconfig: join(ROOT, 'tsconfig.json'),
  plugins: [noNodeBuiltins],
  write: false,
  metafile: true,
  logLevel: 'silent',
} satisfies BuildOptions;

/** Bodies checked in the browser, in Node and by the server: all three must agree. */
const BODIES: unknown[] = [
  { size: 6 },
  { size: '6' },
  { size: 13 },
  { size: 6.5 },
  { size: 'six' },
  {},
  { size: 4, colour: 'red' },
  { size: 4, contents: [{ type: 'table' }, { type: 'text', data: { html: 1 } }] },
  { size: 4, position: -1 },
  [],
];

/** Whole trees (a project read posted back, with its read members) and batches. */
const TREES_AND_BATCHES: ['project' | 'batch', unknown][] = [
  [
    'project',
    {
      _id: 'x',
      title: 'Copy',
      revision: 7,
      createdAt: '2026-11-22T10:15:30.000Z',
      blocks: [
        {
          _id: 'b',
          description: '',
          rows: [{ columns: [{ size: '6', contents: [{ _id: 'c', type: 'empty' }] }] }],
        },
      ],
    },
  ],
  ['project', { title: 'Bad', blocks: [{ description: '', rows: [{ columns: [{ size: 13 }] }] }] }],
  ['project', { title: 'Bad', blocks: [{ rows: 'none' }] }],
  ['batch', { operations: [{ method: 'PUT', path: '/projects/p/blocks/b', body: {} }] }],
  ['batch', { operations: [] }],
  ['batch', { operations: [{ method: 'PATCH', path: '', ref: 'no spaces' }] }],
  ['batch', { operations: [{ method: 'DELETE', path: '/p', body: [] }] }],
];

describe('the DTO library bundled for a browser', () => {
  let bundle: string;
  let inputs: string[];

  beforeAll(async () => {
    const result = await build({ ...browserBuild, entryPoints: [ENTRY] });
    bundle = result.outputFiles[0].text;
    inputs = Object.keys(result.metafile.inputs);
  }, 60_000);

  it('bundles the library sources with class-validator and class-transformer, without reflect-metadata', () => {
    expect(inputs.some((input) => input.startsWith('libs/contracts/src/'))).toBe(true);
    expect(inputs.some((input) => input.includes('node_modules/class-validator/'))).toBe(true);
    expect(inputs.some((input) => input.includes('node_modules/class-transformer/'))).toBe(true);
    expect(inputs.filter((input) => input.includes('reflect-metadata'))).toEqual([]);
  });

  it('fails the build when a Node built-in sneaks in', async () => {
    const sneaky = {
      contents: [
        "import { createHash } from 'node:crypto';",
        "import { validateBody } from '@layout/contracts';",
        'export const both = [createHash, validateBody];',
      ].join('\n'),
      resolveDir: HERE,
      loader: 'ts' as const,
    };
    await expect(build({ ...browserBuild, stdin: sneaky })).rejects.toThrow(
      /Node built-in "node:crypto"/,
    );
    const bare = { ...sneaky, contents: "import { readFileSync } from 'fs';\nreadFileSync('x');" };
    await expect(build({ ...browserBuild, stdin: bare })).rejects.toThrow(/Node built-in "fs"/);
  });

  describeWithChromium('in headless Chromium', () => {
    let browser: Browser;
    let page: Page;
    const pageErrors: Error[] = [];

    /** Runs the bundled checkColumnBody in the page. */
    const checkInBrowser = (body: unknown): Promise<ColumnBodyCheck> =>
      page.evaluate(
        (b) => (globalThis as any).layoutContracts.checkColumnBody(b) as Promise<ColumnBodyCheck>,
        body,
      );

    beforeAll(async () => {
      browser = await launchChromium();
      page = await browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error));
      // Nothing leaves the page: the bundle is all it has.
      await page.route('**/*', (route) => route.abort());
      await page.setContent('<!doctype html><title>proposal editor</title>');
      await page.addScriptTag({ content: bundle });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
    });

    afterEach(() => {
      expect(pageErrors).toEqual([]);
    });

    it('runs in a page that has no reflect-metadata and no Node globals', async () => {
      expect(await page.evaluate(() => typeof (Reflect as any).getMetadata)).toBe('undefined');
      expect(await page.evaluate(() => typeof (globalThis as any).process)).toBe('undefined');
      expect(await page.evaluate(() => typeof (globalThis as any).Buffer)).toBe('undefined');
    });

    it('accepts a valid column body and rejects { size: 13 } at /size', async () => {
      expect(await checkInBrowser({ size: 6 })).toEqual({ ok: true, size: 6, errors: [] });
      expect(await checkInBrowser({ size: '6' })).toEqual({ ok: true, size: 6, errors: [] });
      expect(await checkInBrowser({ size: 13 })).toEqual({
        ok: false,
        errors: [{ pointer: '/size', detail: COLUMN_SIZE_DETAIL }],
      });
    });

    it('checks whole trees and batches as Node does, and as the server answers them', async () => {
      let app: NestFastifyApplication | undefined;
      try {
        app = await startTestApp();
        const api = new Api(app);
        const { token } = await api.newAccount('browser-trees');
        const { project } = await createLayout(api, token, 1);
        for (const [kind, body] of TREES_AND_BATCHES) {
          const inBrowser = await page.evaluate(
            ([k, b]) => (globalThis as any).layoutContracts.checkBody(k, b) as Promise<unknown[]>,
            [kind, body] as const,
          );
          const inNode =
            kind === 'project'
              ? await validateBody(CreateProjectDto, body)
              : await validateBody(BatchDto, body);
          expect({ body, errors: inBrowser }).toEqual({ body, errors: inNode.errors });
          const answer = await api.post(
            kind === 'project' ? '/projects' : `${project}/batch`,
            body,
            {
              token,
            },
          );
          // A batch whose shape is right may still be refused when it runs (its paths here
          // name nothing): only the shape is the library's to check.
          if (inNode.errors.length > 0) {
            expect({ body, status: answer.status, errors: answer.body.errors }).toEqual({
              body,
              status: 400,
              errors: inNode.errors,
            });
          } else if (kind === 'project') {
            expect({ body, status: answer.status }).toEqual({ body, status: 201 });
          } else {
            expect({ body, type: answer.body.type }).not.toEqual({
              body,
              type: '/problems/validation',
            });
          }
        }
      } finally {
        await app?.close();
      }
    }, 60_000);

    it('finds exactly what validateBody finds in Node, and what the server answers', async () => {
      let app: NestFastifyApplication | undefined;
      try {
        app = await startTestApp();
        const api = new Api(app);
        const { token } = await api.newAccount('browser');
        for (const body of BODIES) {
          const inBrowser = await checkInBrowser(body);
          const inNode = await validateBody(CreateColumnDto, body);
          expect({ body, errors: inBrowser.errors }).toEqual({ body, errors: inNode.errors });

          // Each body on a fresh row (one column of width 1), so that valid ones fit.
          const { columns } = await createLayout(api, token, 1);
          const answer = await api.post(columns, body, { token });
          if (inBrowser.ok) {
            expect({ body, status: answer.status }).toEqual({ body, status: 201 });
            expect(answer.body.size).toBe(String(inBrowser.size));
          } else {
            expect({ body, status: answer.status }).toEqual({ body, status: 400 });
            expect({ body, errors: answer.body.errors }).toEqual({
              body,
              errors: inBrowser.errors,
            });
          }
        }
      } finally {
        await app?.close();
      }
    }, 60_000);
  });
});
