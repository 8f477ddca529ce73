// The element's layout (docs/adr/0168): two columns with a sticky side panel when wide, one
// column with a bottom bar of the total and the action when narrow (a phone, or a shop's
// narrow column: a container query on the element's own width); the progress bar.
import { css } from 'lit';

export const layoutStyles = css`
  /* Laid out by its own width, not the window's: a shop may embed it in a narrow column. */
  :host {
    container-type: inline-size;
  }
  .layout {
    display: grid;
    grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    grid-template-areas: 'head side' 'fail side' 'questions side';
    grid-template-rows: auto auto 1fr;
    gap: 1em 1.5em;
  }
  /* The side panel stays in view while the questions scroll (the total and the action first). */
  .side {
    grid-area: side;
    position: sticky;
    top: var(--cfg-sticky-top, 0);
    align-self: start;
    max-height: calc(100vh - var(--cfg-sticky-top, 0px));
    overflow-y: auto;
    display: flex;
    flex-direction: column;
    gap: 0.8em;
  }
  .bar {
    position: relative;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5em 1em;
    background: #fff;
    border: 1px solid var(--line);
    border-radius: 8px;
    padding: 0.7em 1em;
  }
  .bar-total {
    margin: 0;
    flex: 1 1 auto;
    display: flex;
    align-items: baseline;
    gap: 0.5em;
  }
  .bar-total strong {
    font-size: 1.25em;
    font-variant-numeric: tabular-nums;
    transition: opacity 0.2s;
  }
  .actions {
    display: flex;
    gap: 0.5em;
  }
  .notice {
    flex-basis: 100%;
    margin: 0;
    color: #1c6b35;
  }
  /* Shown only when an answer takes longer than 150 ms: a quick one never flickers. */
  .progress {
    position: absolute;
    top: 0;
    left: 0;
    right: 0;
    height: 3px;
    overflow: hidden;
    border-radius: 8px 8px 0 0;
    visibility: hidden;
  }
  .progress::after {
    content: '';
    position: absolute;
    inset: 0;
    width: 40%;
    background: var(--accent);
  }
  /* Animated only while busy: an idle element asks nothing of the compositor. */
  :host([aria-busy='true']) .progress {
    animation: appear 0s linear 150ms forwards;
  }
  :host([aria-busy='true']) .progress::after {
    animation: slide 1s ease-in-out infinite;
  }
  :host([aria-busy='true']) .bar-total strong {
    animation: dim 0s linear 150ms forwards;
  }
  @keyframes appear {
    to {
      visibility: visible;
    }
  }
  @keyframes dim {
    to {
      opacity: 0.45;
    }
  }
  @keyframes slide {
    from {
      transform: translateX(-100%);
    }
    to {
      transform: translateX(250%);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    :host([aria-busy='true']) .progress::after,
    .progress::after {
      animation: none;
      width: 100%;
      opacity: 0.6;
    }
  }
  /* A phone (or a narrow column): one column, the total and the action in a bar at the
       bottom of the screen while the questions scroll. */
  @container (max-width: 760px) {
    .layout {
      display: block;
    }
    .layout > * + * {
      margin-top: 1em;
    }
    .side {
      display: contents;
    }
    .bar {
      position: sticky;
      bottom: 0;
      z-index: 2;
      margin: 1em -0.2em 0;
      border-radius: 8px 8px 0 0;
      box-shadow: 0 -2px 8px rgb(0 0 0 / 12%);
    }
    .summary {
      margin-top: 1em;
    }
    .add {
      min-height: 44px;
    }
  }
`;
