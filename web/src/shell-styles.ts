// The look of the pages around the configurator: header, sign-in, pickers, cart, workbench.
import { css } from 'lit';

export const shellStyles = css`
  :host {
    display: block;
    max-width: 1100px;
    margin: 0 auto;
    padding: 0 1em 2em;
  }
  header.top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.6em 1.5em;
    padding: 0.8em 0;
    border-bottom: 1px solid var(--line);
    margin-bottom: 1em;
  }
  header.top .brand {
    font-weight: 700;
    font-size: 1.1em;
  }
  h1 {
    font-size: 1.4em;
    margin: 0.2em 0 0.6em;
  }
  header.top nav {
    display: flex;
    flex-wrap: wrap;
    gap: 0.4em;
    flex: 1 1 auto;
  }
  @media (max-width: 600px) {
    :host {
      padding: 0 0.6em 1.5em;
    }
    header.top {
      gap: 0.5em 1em;
    }
    header.top nav {
      order: 3;
      flex-basis: 100%;
    }
    header.top .link {
      margin-left: auto;
    }
  }
  header.top nav button[aria-current='page'] {
    background: var(--accent);
    border-color: var(--accent);
    color: #fff;
  }
  .signin {
    max-width: 360px;
    margin: 4em auto;
  }
  .signin form {
    display: flex;
    flex-direction: column;
    gap: 0.4em;
  }
  .signin button {
    margin-top: 0.6em;
  }
  .hint {
    color: var(--muted);
    font-size: 0.87em;
  }
  .pickers {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.4em 0.8em;
    margin-bottom: 1em;
  }
  .pickers label {
    font-weight: 600;
  }
  ul.lines {
    list-style: none;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 0.6em;
  }
  .line {
    display: flex;
    align-items: center;
    gap: 1em;
  }
  .line > div {
    flex: 1;
  }
  .line .answers {
    margin: 0.2em 0 0;
    color: var(--muted);
    font-size: 0.9em;
  }
  .totals {
    font-size: 1.1em;
    text-align: right;
  }
  .drop {
    border: 2px dashed #8a93a0;
    text-align: center;
    margin: 1em 0;
  }
  .drop .file {
    font-weight: 600;
    color: var(--accent);
  }
  .problems {
    padding-left: 1.2em;
  }
  .analysis {
    display: grid;
    grid-template-columns: max-content 1fr;
    gap: 0.2em 1em;
  }
  .analysis dt {
    font-weight: 600;
  }
  .analysis dd {
    margin: 0;
  }
  .failure ul {
    margin: 0.3em 0;
  }
`;
