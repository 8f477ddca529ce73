// The cart page: its cart chooser and actions, and lines that stack on a phone.
import { css } from 'lit';

export const cartStyles = css`
  :host {
    container-type: inline-size;
  }
  .carts {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em 0.8em;
    margin-bottom: 1em;
  }
  .carts label {
    font-weight: 600;
  }
  .rename {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.4em;
  }
  button.danger {
    color: var(--bad);
    border-color: var(--bad);
  }
  .badges {
    display: inline-flex;
    flex-wrap: wrap;
    gap: 0.3em;
    margin-left: 0.4em;
  }
  .badge {
    font-size: 0.75em;
    font-weight: 600;
    border-radius: 999px;
    padding: 0 0.6em;
    background: #eef1f5;
    color: #3b4350;
  }
  .badge.newer {
    background: #e4ecf9;
    color: #1b4c99;
  }
  .badge.retired {
    background: #fdf0ef;
    color: var(--bad);
  }
  .line-actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em;
  }
  .line .amount {
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  @container (max-width: 600px) {
    .line {
      flex-direction: column;
      align-items: stretch;
      gap: 0.5em;
    }
    .line .amount {
      font-weight: 700;
    }
    .line-actions button {
      flex: 1 1 auto;
      min-height: 44px;
    }
    .totals {
      text-align: left;
    }
  }
`;
