/** The widest a column's row is laid out before it stacks (the contract's 600 CSS pixels). */
export const STACKED_BELOW_PX = 600;

const SPANS = Array.from(
  { length: 12 },
  (_, index) => `.pl-span-${index + 1}{grid-column:span ${index + 1}}`,
);

/**
 * The page's own rules: a readable column of text, each row a 12-column grid in which a column
 * spans its size, and below the stacking width one column per line. Columns have no gap between
 * them, so that their widths stand in the proportion of their sizes.
 */
export const PAGE_STYLES = [
  '*,*::before,*::after{box-sizing:border-box}',
  'html{-webkit-text-size-adjust:100%}',
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;line-height:1.5;color:#1f2328;background:#fff}',
  '.pl-header,.pl-inner{max-width:1200px;margin:0 auto;padding:0 16px}',
  '.pl-header{padding-top:32px;padding-bottom:8px}',
  'h1{font-size:2rem;line-height:1.2;margin:0}',
  'h2{font-size:1.5rem;line-height:1.25;margin:0 0 8px;padding:0 8px}',
  '.pl-block{padding:24px 0}',
  '.pl-row{display:grid;grid-template-columns:repeat(12,minmax(0,1fr))}',
  '.pl-column{min-width:0;padding:8px}',
  ...SPANS,
  '.pl-content{margin:0 0 16px}',
  '.pl-text{overflow-wrap:anywhere}',
  '.pl-quote{overflow-x:auto}',
  '.pl-content:last-child{margin-bottom:0}',
  '.pl-image{margin-left:0;margin-right:0}',
  '.pl-image img,.pl-text img,video{max-width:100%;height:auto}',
  '.pl-image img{display:block}',
  'video{display:block;width:100%}',
  'table{border-collapse:collapse;width:100%}',
  'th,td{padding:6px 8px;border-bottom:1px solid #d0d7de;text-align:left;vertical-align:top}',
  '.pl-number{text-align:right;font-variant-numeric:tabular-nums}',
  'tfoot th,tfoot td{font-weight:600;border-bottom:0}',
  `@media (max-width:${STACKED_BELOW_PX - 0.02}px){.pl-row{grid-template-columns:minmax(0,1fr)}.pl-row>.pl-column{grid-column:1/-1}}`,
].join('\n');
