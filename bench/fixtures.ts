// What an editor stores: texts of a few hundred characters with ordinary formatting, images with
// dimensions and alt text, small price quotes. Varied by `n` so that rows are not all identical.

const TOPICS = ['Discovery', 'Design', 'Build', 'Launch', 'Support'];

export function textHtml(n: number): string {
  const topic = TOPICS[n % TOPICS.length];
  return (
    `<h2>${topic} phase (${n})</h2>` +
    `<p>During the <strong>${topic.toLowerCase()}</strong> phase our team works with yours to ` +
    `agree on goals, constraints and a schedule. You get a written summary after every ` +
    `workshop, and <em>nothing</em> moves forward without your sign-off. See the ` +
    `<a href="https://example.com/case-studies/${n}" target="_blank">case study</a>.</p>` +
    `<ul><li>Kick-off workshop</li><li>Wireframes &amp; prototypes</li>` +
    `<li>Accessibility review (WCAG 2.2 AA)</li></ul>`
  );
}

export function imageData(n: number) {
  return {
    url: `https://cdn.example.com/proposals/${n}/hero.jpg`,
    width: '600px',
    height: 'auto',
    alt: `Illustration ${n} of the proposed layout`,
  };
}

export function quoteData(n: number) {
  return {
    options: { currency: n % 2 === 0 ? 'EUR' : 'USD' },
    content: {
      fields: [
        { id: 'name', label: 'Item', show: true },
        { id: 'quantity', label: 'Qty', show: true },
        { id: 'price', label: 'Unit price', show: true },
      ],
      items: [
        { id: '1', name: 'Discovery workshop', quantity: 1, price: 1800 },
        { id: '2', name: 'Design sprint', quantity: 2, price: 4200.5 },
        { id: '3', name: `Development (${n})`, quantity: 120, price: 95 },
      ],
    },
  };
}

export const BLOCK_STYLE = { backgroundColor: '#f5f5f5', backgroundSize: 'contain' };

/** The first content of every seeded column: a text, with a partial style on every other one. */
export function textContentBody(n: number) {
  return {
    type: 'text',
    ...(n % 2 === 0 && { style: { backgroundRepeat: 'repeat-x', opacity: 0.9 } }),
    data: { html: textHtml(n) },
  };
}

/** The second content of every seeded column: an image or a quote. */
export function mediaContentBody(n: number) {
  return n % 2 === 0
    ? { type: 'image', data: imageData(n) }
    : { type: 'quote', style: { backgroundPosition: 'left top' }, data: quoteData(n) };
}

/** What scenario (d) creates, in turn. */
export const CREATE_BODIES: readonly object[] = [
  textContentBody(1000),
  mediaContentBody(1000),
  mediaContentBody(1001),
];
