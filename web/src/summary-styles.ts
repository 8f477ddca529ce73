// The configurator's summary (its side panel): the price table, the messages, the bill of
// materials, the product images, the displayed variables and the modeller's problems.
import { css } from 'lit';

export const summaryStyles = css`
  table.price {
    width: 100%;
    border-collapse: collapse;
    background: #fff;
    border: 1px solid var(--line);
    border-radius: 8px;
  }
  table.price caption {
    text-align: left;
    font-weight: 600;
    padding-bottom: 0.3em;
  }
  table.price th,
  table.price td {
    padding: 0.2em 0.8em;
    font-weight: normal;
    text-align: left;
  }
  table.price td {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  table.price tr.total {
    font-weight: 700;
    border-top: 1px solid var(--line);
  }
  table.price tr.total th {
    font-weight: 700;
  }
  .messages ul {
    margin: 0.3em 0;
    padding-left: 1.2em;
  }
  .messages h3 {
    font-size: 1em;
    margin: 0;
  }
  .errors li,
  .rules li.error {
    color: var(--bad);
  }
  .ok {
    color: #1c6b35;
    margin: 0;
  }
  .add {
    font-size: 1.05em;
    padding: 0.5em;
  }
  .bom ul {
    list-style: none;
    padding-left: 1em;
    margin: 0.2em 0;
  }
  .bom li {
    padding: 0.1em 0;
  }
  .sku {
    font-family: ui-monospace, monospace;
    font-size: 0.85em;
    color: var(--muted);
  }
  .qty,
  .amount {
    color: var(--muted);
    font-size: 0.9em;
    margin-left: 0.4em;
  }
  figure.images {
    position: relative;
    margin: 0;
    aspect-ratio: 4 / 3;
    background: #fff;
    border: 1px solid var(--line);
    border-radius: 8px;
  }
  /* Images that failed to load are hidden; with none left, so is the frame. */
  figure.images:not(:has(img:not([hidden]))) {
    display: none;
  }
  figure.images img {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    object-fit: contain;
  }
  .modeller {
    border: 1px dashed #8a93a0;
    border-radius: 6px;
    padding: 0.3em 0.8em;
    margin-top: 0.5em;
  }
  .variables {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 0.2em 1em;
    margin: 0;
    background: #fff;
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.5em 0.8em;
  }
  .variables dt {
    color: var(--muted);
  }
  .variables dd {
    margin: 0;
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
`;
