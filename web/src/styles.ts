// The look of the elements (inside their shadow roots, so a shop's CSS does not reach them).
// Colours meet WCAG AA contrast on white (axe checks it in test/e2e/browser-pages.e2e.test.ts).
import { css } from 'lit';
import { layoutStyles } from './layout-styles.js';
import { summaryStyles } from './summary-styles.js';

export const baseStyles = css`
  :host {
    display: block;
    font:
      15px/1.45 system-ui,
      sans-serif;
    color: #1d2430;
    --accent: #1f5fbf;
    --muted: #545d6b;
    --bad: #a8231a;
    --line: #d5dae1;
    overflow-wrap: anywhere;
  }
  select,
  input {
    max-width: 100%;
    box-sizing: border-box;
  }
  button {
    font: inherit;
    padding: 0.35em 0.9em;
    border: 1px solid var(--line);
    border-radius: 6px;
    background: #fff;
    color: inherit;
    cursor: pointer;
  }
  button.primary {
    background: var(--accent);
    border-color: var(--accent);
    color: #fff;
  }
  button:disabled {
    background: #e9ecf0;
    border-color: var(--line);
    color: var(--muted);
    cursor: not-allowed;
  }
  button.link {
    border: 0;
    background: none;
    color: var(--accent);
    text-decoration: underline;
    padding: 0;
  }
  :focus-visible {
    outline: 3px solid #f0a500;
    outline-offset: 2px;
  }
  input[type='text'],
  input[type='number'],
  input[type='email'],
  input[type='password'],
  select {
    font: inherit;
    padding: 0.3em 0.5em;
    border: 1px solid #8a93a0;
    border-radius: 5px;
  }
  code {
    font-size: 0.9em;
    background: #eef1f5;
    padding: 0 0.25em;
    border-radius: 3px;
  }
  .failure {
    border: 1px solid var(--bad);
    background: #fdf0ef;
    color: var(--bad);
    padding: 0.6em 0.9em;
    border-radius: 6px;
  }
  .card {
    background: #fff;
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 1em 1.2em;
  }
`;

export const configuratorStyles = [
  baseStyles,
  layoutStyles,
  css`
    header {
      grid-area: head;
    }
    header h2 {
      margin: 0;
    }
    header p {
      margin: 0.2em 0;
      color: var(--muted);
    }
    .failure {
      grid-area: fail;
    }
    .questions {
      grid-area: questions;
      display: flex;
      flex-direction: column;
      gap: 0.8em;
    }
    .summary {
      display: flex;
      flex-direction: column;
      gap: 0.8em;
    }
    .question {
      min-width: 0;
      background: #fff;
      border: 1px solid var(--line);
      border-radius: 8px;
      padding: 0.6em 1em 0.8em;
      margin: 0;
    }
    legend,
    .field > label {
      font-weight: 600;
      padding: 0 0.2em;
    }
    .field {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 0.4em 0.8em;
    }
    .field > label {
      flex-basis: 100%;
    }
    .option {
      display: flex;
      flex-wrap: wrap;
      align-items: baseline;
      gap: 0.15em 0.5em;
      padding: 0.15em 0;
    }
    .option.unavailable label {
      color: var(--muted);
      text-decoration: line-through;
    }
    .why,
    .hint,
    .req {
      color: var(--muted);
      font-size: 0.87em;
      font-weight: normal;
    }
    .why {
      flex-basis: 100%;
      box-sizing: border-box;
      padding-left: 1.7em;
    }
    .price,
    .price-from,
    .price-range {
      color: var(--muted);
      font-size: 0.9em;
    }
    .price-from {
      margin-left: 0.3em;
    }
    .mark {
      display: inline-block;
      font-size: 0.75em;
      font-weight: 600;
      background: #e4ecf9;
      color: #1b4c99;
      border-radius: 999px;
      padding: 0 0.6em;
      margin-left: 0.4em;
    }
    .mark.suppressed {
      background: #fdf1dc;
      color: #7a4a00;
    }
    .offer {
      background: #fff8e6;
      border: 1px solid #e0b44c;
      border-radius: 8px;
      padding: 0.6em 1em;
    }
    .offer p {
      margin: 0 0 0.5em;
    }
    .count strong {
      font-size: 1.2em;
    }
  `,
  // After the rules above, as when they were one sheet: the same cascade order.
  summaryStyles,
];
