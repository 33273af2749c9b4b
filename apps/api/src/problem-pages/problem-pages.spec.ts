import {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  type ProblemKind,
} from '@layout/contracts';
import { escapeHtml, problemListPage, problemPage, sentenceHtml } from './problem-pages';

describe('problem pages', () => {
  it.each(Object.keys(PROBLEM_TYPES) as ProblemKind[])(
    'describes %s: title, status, type, when it happens, links',
    (kind) => {
      const type = PROBLEM_TYPES[kind];
      const html = problemPage(kind);
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain(`<h1>${escapeHtml(PROBLEM_TITLES[type])}</h1>`);
      expect(html).toContain(`<dd>${PROBLEM_STATUSES[type]}</dd>`);
      expect(html).toContain(`<code>${type}</code>`);
      expect(html).toContain('href="/docs"');
      // A sentence on when it happens, whatever the kind.
      expect(html).toMatch(/<p>[A-Z`].{20,}<\/p>/);
      expect(html).not.toMatch(/<script|style=/i);
    },
  );

  it('lists every type, linking to its page', () => {
    const html = problemListPage();
    for (const type of Object.values(PROBLEM_TYPES)) expect(html).toContain(`href="${type}"`);
  });

  it('escapes text and turns code spans into <code>', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
    expect(sentenceHtml('send `If-Match` <now>')).toBe('send <code>If-Match</code> &lt;now&gt;');
  });
});
